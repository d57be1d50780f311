/// Text placed in XML or HTML (an SVG's title, the preview page), escaped in one place so that
/// whatever a preset, manifest or path holds, the document stays well-formed.
///
/// The characters markup gives a meaning to (`&`, `<`, `>`, `"`, `'`) become entity references,
/// so the result fits element content and attribute values in either quote. Characters XML 1.0
/// forbids anywhere in a document, even written as character references (controls other than tab,
/// line feed and carriage return, U+FFFE and U+FFFF; lone surrogates cannot occur in a Swift
/// string), become U+FFFD, as do DEL and the C1 controls, which XML 1.0 discourages and HTML
/// reports as errors: a strict parser rejects the whole file for one of them, so a preset's
/// description holding a U+0000 would make an SVG that no `<img>` shows.
public enum MarkupText {
    /// What a character markup cannot hold becomes.
    public static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// Whether XML 1.0's `Char` production allows `scalar`:
    /// `#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`.
    public static func isXMLChar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// Whether `scalar` is written as U+FFFD: forbidden by XML 1.0, or DEL or a C1 control.
    public static func isReplaced(_ scalar: Unicode.Scalar) -> Bool {
        !isXMLChar(scalar) || (0x7F...0x9F).contains(scalar.value)
    }

    /// `text` for element content or an attribute value.
    public static func escaped(_ text: some StringProtocol) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case _ where isReplaced(scalar): out.unicodeScalars.append(replacement)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
