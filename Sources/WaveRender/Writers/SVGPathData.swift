import WaveKit

/// Compact SVG numbers and path data: values rounded to a fixed number of decimals and written
/// without trailing zeros, a leading zero or needless separators (`M1.5.25-3`).
struct SVGPathData {
    /// Decimals every value is rounded to.
    let decimals: Int
    /// Units per pixel: 10^decimals.
    let scale: Double
    private(set) var text = ""
    private var lastHasDot = false
    private var lastIsNumber = false

    init(decimals: Int) {
        self.decimals = decimals
        var s = 1.0
        for _ in 0..<decimals { s *= 10 }
        scale = s
    }

    /// `v` in whole units of 10^−decimals.
    func units(_ v: Double) -> Int { Int(saturating: (v * scale).rounded()) }

    /// The value a number of units stands for.
    func value(_ units: Int) -> Double { Double(units) / scale }

    /// Appends a command letter.
    mutating func command(_ letter: Character) {
        text.append(letter)
        lastIsNumber = false
    }

    /// Appends a number given in units, separated from the one before only where needed.
    mutating func number(units n: Int) {
        let s = SVGPathData.format(units: n, decimals: decimals)
        if lastIsNumber, !(s.hasPrefix("-") || (s.hasPrefix(".") && lastHasDot)) { text.append(" ") }
        text += s
        lastHasDot = s.contains(".")
        lastIsNumber = true
    }

    /// Appends a number rounded to the decimals.
    mutating func number(_ v: Double) { number(units: units(v)) }

    /// `n` units of 10^−decimals as short text: 1250 → "12.5", 50 → ".5", −5 → "-.05".
    static func format(units n: Int, decimals: Int) -> String {
        guard n != 0 else { return "0" }
        var p = 1
        for _ in 0..<decimals { p *= 10 }
        let whole = abs(n) / p
        var fraction = abs(n) % p
        var text = n < 0 ? "-" : ""
        if whole > 0 || fraction == 0 { text += String(whole) }
        if fraction > 0 {
            var digits = decimals
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            let f = String(fraction)
            text += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return text
    }

    /// `v` rounded to `decimals` as short text.
    static func format(_ v: Double, decimals: Int) -> String {
        var p = 1.0
        for _ in 0..<decimals { p *= 10 }
        return format(units: Int(saturating: (v * p).rounded()), decimals: decimals)
    }
}
