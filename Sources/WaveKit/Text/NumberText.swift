/// Every number wavegen prints, formatted in one place: messages, reports, plan tables, file sizes
/// and JSON.
public enum NumberText {
    /// `v` rounded to `places` decimals with trailing zeros dropped: 2 → "2", 0.125 → "0.13" (2 places).
    public static func decimal(_ v: Double, places: Int) -> String {
        let k = pow10(places)
        let r = (v * k).rounded() / k
        guard r == r.rounded(), abs(r) < 1e15 else { return String(r) }
        return String(Int64(r))
    }

    /// `v` with exactly `places` decimals: 0.5 → "0.50" (2 places).
    public static func fixed(_ v: Double, places: Int) -> String {
        guard v.isFinite else { return String(v) }
        let k = pow10(places)
        let scaled = (abs(v) * k).rounded()
        let whole = Int64(scaled / k), fraction = Int64(scaled.truncatingRemainder(dividingBy: k))
        let sign = v < 0 && scaled > 0 ? "-" : ""
        guard places > 0 else { return sign + String(whole) }
        let digits = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: places - digits.count) + digits
    }

    /// The shortest text that reads back as exactly `n`, as JSON writes numbers (whole numbers
    /// without a fraction).
    public static func exact(_ n: Double) -> String {
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return "\(n)"
    }

    /// A file size in one style everywhere, decimal units as `ls --si`: "998 B", "3.8 kB",
    /// "42.8 kB", "1.2 MB".
    public static func bytes(_ n: Int) -> String {
        if n < 1000 { return "\(n) B" }
        if n < 999_950 { return fixed(Double(n) / 1000, places: 1) + " kB" }
        return fixed(Double(n) / 1_000_000, places: 1) + " MB"
    }

    /// "1 frame", "2 frames": a count with its noun in the right number.
    public static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? noun : plural ?? noun + "s")
    }

    /// `n` with leading zeros to at least `digits` digits: 7 → "0007".
    public static func padded(_ n: Int, digits: Int) -> String {
        let text = String(n.magnitude)
        return (n < 0 ? "-" : "") + String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// 43082 → "43,082"
    public static func grouped(_ n: Int) -> String {
        let digits = Array(String(n.magnitude))
        var out = n < 0 ? "-" : ""
        for (i, d) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return out
    }

    private static func pow10(_ places: Int) -> Double {
        var k = 1.0
        for _ in 0..<max(0, places) { k *= 10 }
        return k
    }
}

extension NumberText {
    /// A size in bytes as a person writes it: `40000`, `40000B`, `40kB` or `40k` (×1000),
    /// `39KiB` (×1024), `1.5MB` or `1.5M` (×1,000,000), `1MiB` (×1,048,576); units in any case
    /// except the `i` of binary units, which may be either. Nil when it is not such a size or is
    /// not a whole number of bytes above zero.
    public static func byteSize(_ text: String) -> Int? {
        let t = text.filter { $0 != " " }
        let digits = t.prefix { $0.isNumber || $0 == "." }
        let unit = t.dropFirst(digits.count).lowercased()
        let factors: [String: Double] = ["": 1, "b": 1, "k": 1e3, "kb": 1e3, "kib": 1024, "m": 1e6, "mb": 1e6, "mib": 1_048_576]
        guard !digits.isEmpty, digits.filter({ $0 == "." }).count <= 1, digits.first != ".", digits.last != ".",
              let factor = factors[unit], let v = Double(digits) else { return nil }
        let n = v * factor
        guard n >= 1, n < 1e15, n == n.rounded() else { return nil }
        return Int(n)
    }
}
