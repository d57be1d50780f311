extension Unicode.Scalar {
    /// Whether the scalar is white space or a line break: the separators (Unicode categories Zs, Zl,
    /// Zp), U+0009–U+000D, U+0085 and the zero-width space U+200B, the set CSS and presets trim
    /// (Foundation's `CharacterSet.whitespacesAndNewlines`).
    public var isWhitespaceOrNewline: Bool {
        switch value {
        case 0x09...0x0D, 0x85, 0x200B: return true
        default:
            switch properties.generalCategory {
            case .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
            default: return false
            }
        }
    }

    /// Whether the scalar is a space or tab (category Zs, U+0009 or the zero-width space U+200B,
    /// as Foundation's `CharacterSet.whitespaces`), without line breaks.
    public var isSpaceOrTab: Bool {
        value == 0x09 || value == 0x200B || properties.generalCategory == .spaceSeparator
    }

    /// Whether the scalar is a control or format character (categories Cc and Cf).
    public var isControlCharacter: Bool {
        switch properties.generalCategory {
        case .control, .format: return true
        default: return false
        }
    }
}

extension StringProtocol {
    /// The text without white space and line breaks at either end.
    public func trimmingWhitespace() -> String { trimming(\.isWhitespaceOrNewline) }

    /// The text without the scalars `drop` accepts at either end.
    public func trimming(_ drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !drop($0) })!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
