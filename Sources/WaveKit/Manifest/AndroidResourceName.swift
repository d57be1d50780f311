import WavePlatform

/// Android's rule for the files of a resource folder (`res/drawable-xhdpi/`, `res/raw/`): the file
/// name without its extension becomes a Java field of `R.drawable` or `R.raw`, so it must be a
/// lowercase identifier (a–z, 0–9 and `_`, starting with a letter) and not a Java keyword.
public enum AndroidResourceName {
    /// Java's keywords and literals, which no resource may be named.
    public static let javaKeywords: Set<String> = [
        "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue",
        "default", "do", "double", "else", "enum", "extends", "false", "final", "finally", "float", "for", "goto",
        "if", "implements", "import", "instanceof", "int", "interface", "long", "native", "new", "null", "package",
        "private", "protected", "public", "return", "short", "static", "strictfp", "super", "switch",
        "synchronized", "this", "throw", "throws", "transient", "true", "try", "void", "volatile", "while",
    ]

    /// Whether a template writes into an Android resource folder: one of its folders is `drawable`
    /// or `raw`, alone or with qualifiers (`drawable-{density}`, `drawable-night-xhdpi`, `raw-en`).
    public static func isResourceFolder(_ template: OutputTemplate) -> Bool {
        let folders = template.source.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        return folders.contains { folder in
            ["drawable", "raw"].contains { folder == $0 || folder.hasPrefix($0 + "-") }
        }
    }

    /// The base name of a file name: without its extension ("brand-orb@2x.gif" → "brand-orb@2x").
    public static func baseName(_ fileName: String) -> String {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return fileName }
        return String(fileName[..<dot])
    }

    /// What is wrong with `name` as a resource name, or nil when Android takes it.
    public static func problem(_ name: String) -> String? {
        guard let first = name.unicodeScalars.first else { return "is empty" }
        if let bad = name.unicodeScalars.first(where: { !isAllowed($0) }) {
            let shown = bad == " " ? "a space" : "\"\(bad)\""
            return "holds \(shown): only lowercase a–z, digits 0–9 and _ are allowed"
        }
        if !("a"..."z").contains(first) { return "starts with \"\(first)\": it must start with a letter a–z" }
        if javaKeywords.contains(name) { return "is a Java keyword" }
        return nil
    }

    /// A name Android takes that stays close to `name`, with `drop` (a `{scale}` value such as
    /// "@2x") taken out first: lowercased, every other character turned into `_`, runs of `_`
    /// joined, and a letter put first or a suffix after a keyword when needed.
    /// "brand-orb@2x" → "brand_orb".
    public static func suggestion(for name: String, dropping drop: String = "") -> String {
        var text = name
        if !drop.isEmpty, let range = text.ranges(of: drop).last { text.removeSubrange(range) }
        var out = ""
        for c in text.lowercased().unicodeScalars {
            let next: Character = isAllowed(c) ? Character(c) : "_"
            if next == "_", out.hasSuffix("_") || out.isEmpty { continue }
            out.append(next)
        }
        while out.hasSuffix("_") { out.removeLast() }
        if out.isEmpty { return "anim" }
        if let first = out.unicodeScalars.first, !("a"..."z").contains(first) { out = "anim_" + out }
        if javaKeywords.contains(out) { out += "_anim" }
        return out
    }

    static func isAllowed(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("0"..."9").contains(c) || c == "_"
    }
}
