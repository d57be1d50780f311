internal import CFontconfig
import Synchronization

/// Finds installed fonts by family and style through fontconfig: "DejaVu Sans:bold" → the file
/// of DejaVu Sans Bold.
public enum FontLookup {
    /// The file of the installed font that fontconfig matches to `name` (a fontconfig pattern:
    /// family, then `:style` or other properties). A match of another family (fontconfig's
    /// fallback for a family that is not installed) is refused, naming what it would have used.
    public static func file(matching name: String) throws(TextError) -> String {
        if let known = cache.withLock({ $0[name] }) { return try known.get() }
        let found = Result { () throws(TextError) -> String in try lookUp(name) }
        cache.withLock { $0[name] = found }
        return try found.get()
    }

    /// Answers already found: a build loads the same preset for many outputs.
    private static let cache = Mutex<[String: Result<String, TextError>]>([:])

    static func lookUp(_ name: String) throws(TextError) -> String {
        guard let config = FcInitLoadConfigAndFonts() else { throw TextError("fontconfig could not start") }
        defer { FcConfigDestroy(config) }
        guard let pattern = FcNameParse(name) else { throw TextError("\"\(name)\" is not a fontconfig font name (write it as 'Family' or 'Family:style')") }
        defer { FcPatternDestroy(pattern) }
        let requested = string(pattern, wavegen_FC_FAMILY, 0)
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(config, pattern, &result) else { throw TextError("no installed font matches \"\(name)\"") }
        defer { FcPatternDestroy(match) }
        guard let file = string(match, wavegen_FC_FILE, 0) else { throw TextError("no installed font matches \"\(name)\"") }
        if let requested {
            var families: [String] = []
            while let f = string(match, wavegen_FC_FAMILY, Int32(families.count)) { families.append(f) }
            guard families.contains(where: { comparable($0) == comparable(requested) }) else {
                let offered = families.first.map { " (fontconfig would use \($0) instead)" } ?? ""
                throw TextError("no installed font of the family \"\(requested)\"\(offered); 'fc-list : family' lists the installed families")
            }
        }
        return file
    }

    /// A property's value at `index`, or nil.
    static func string(_ pattern: OpaquePointer, _ object: UnsafePointer<CChar>, _ index: Int32) -> String? {
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, object, index, &value) == FcResultMatch, let value else { return nil }
        return String(cString: value)
    }

    /// Family names as fontconfig compares them: case and spaces ignored.
    static func comparable(_ family: String) -> String {
        family.lowercased().filter { $0 != " " }
    }
}
