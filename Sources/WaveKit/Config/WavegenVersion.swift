/// wavegen's release number, which a packed preset's `"requires"` is compared with.
public enum WavegenVersion {
    /// The running release: MAJOR.MINOR.PATCH.
    public static let current = "0.1.0"

    /// The parts of "MAJOR.MINOR.PATCH" (1 to 3 whole numbers), or nil when `text` is not one.
    public static func parts(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        let numbers = parts.compactMap { p in p.allSatisfy(\.isASCII) && p.allSatisfy(\.isNumber) && p.count <= 6 ? Int(p) : nil }
        guard numbers.count == parts.count else { return nil }
        return numbers + Array(repeating: 0, count: 3 - numbers.count)
    }

    /// Whether `required` names a later release than `running` (both valid versions).
    public static func isNewer(_ required: String, than running: String = current) -> Bool {
        guard let a = parts(required), let b = parts(running) else { return false }
        return a.lexicographicallyPrecedes(b) == false && a != b
    }
}
