/// Text printed on a terminal (diagnostics, status lines), made safe in one place: a name, key or
/// path from a shared preset or manifest must not be able to set the terminal's title, move its
/// cursor or make a line read backwards.
///
/// Characters a terminal acts on rather than shows (the C0 controls, DEL, the C1 controls) and
/// those that change how the rest of a line reads (line and paragraph separators, bidirectional
/// embeddings, overrides, isolates and marks) are written as `\u001b`, the form JSON strings use,
/// so a value quoted in a message (`JSONNode.quote`) and a key or path around it read alike.
/// Nothing else changes, backslashes included: text escaped once is unchanged by escaping again,
/// so a line can be escaped where it is made and again where it is printed.
public enum TerminalText {
    /// Whether `scalar` is written escaped.
    public static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        // Arabic letter mark; left-to-right and right-to-left marks.
        case 0x061C, 0x200E, 0x200F: return true
        // Line and paragraph separators; bidirectional embeddings and overrides.
        case 0x2028...0x202E: return true
        // Bidirectional isolates.
        case 0x2066...0x2069: return true
        default: return false
        }
    }

    /// `text` with every character `isEscaped` names written as `\uXXXX`; with `keepingLayout`,
    /// line feeds and tabs stay as they are (for whole lines of output rather than one line's parts).
    public static func escaped(_ text: some StringProtocol, keepingLayout: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: isEscaped) else { return String(text) }
        var out = ""
        for scalar in text.unicodeScalars {
            if isEscaped(scalar), !(keepingLayout && (scalar == "\n" || scalar == "\t")) {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
