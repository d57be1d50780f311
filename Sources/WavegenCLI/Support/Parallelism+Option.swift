import WaveKit
import WaveBuild

extension Parallelism {
    /// The count an option such as `--jobs` or `--threads` gives, nil when it is not given. Any
    /// whole number ≥ 1 is accepted; one above `maximum` is clamped to it, with a warning on stderr
    /// (unless `--quiet`).
    static func count(_ a: ParsedArguments, option: String, console: Console) throws(WaveError) -> Int? {
        guard let v = a.value(option) else { return nil }
        guard let n = Int(v), n >= 1 else {
            // Digits beyond Int are a whole number too, and as clamped as any other large one.
            guard !v.isEmpty, v.allSatisfy({ $0.isASCII && $0.isNumber }), v.contains(where: { $0 != "0" }) else {
                throw .usage("\(option) expects a whole number ≥ 1, got '\(v)'")
            }
            return capped(v, option: option, console: console, a)
        }
        guard n > maximum else { return n }
        return capped(v, option: option, console: console, a)
    }

    private static func capped(_ v: String, option: String, console: Console, _ a: ParsedArguments) -> Int {
        if !a.has("--quiet") { console.err("warning: \(option) \(v) is more than wavegen runs at once; using \(maximum)\n") }
        return maximum
    }
}
