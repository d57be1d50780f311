import Testing
@testable import WaveKit
import WaveTestSupport

/// `roundedHalfAway` stands in for `rounded()` where every edge pixel is stored: the same bits for
/// every value, and `straight` the same bytes as the same formula through `rounded()`.
@Suite struct RoundingTests {
    @Test func roundsAsTheLibraryDoes() {
        var values: [Double] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, 0.49999999999999994, -0.49999999999999994,
                                0.5000000000000001, 254.5, 255.49999999999997, 0x1p52, -0x1p52, 0x1p52 - 0.5,
                                0x1p53 + 2, .infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
                                -.leastNonzeroMagnitude, 1e300, -1e-300]
        var random = SeededGenerator(state: 3)
        for _ in 0..<200_000 {
            let u = Double(random.next() % 1_000_000_001) / 1_000_000_000
            values.append((u - 0.3) * 600)
            values.append(Double(Int(random.next() % 600)) / 2 - 100)
            values.append(Double(bitPattern: random.next()))
        }
        var mismatches = 0
        for v in values where !v.isNaN && v.roundedHalfAway.bitPattern != v.rounded().bitPattern { mismatches += 1 }
        #expect(mismatches == 0)
        #expect(Double.nan.roundedHalfAway.isNaN)
    }

    @Test func storedColorsAreThoseOfTheFormula() {
        func reference(_ c: PremultipliedColor) -> RGBA {
            let alpha = (c.a * 255).rounded()
            guard alpha > 0 else { return .transparent }
            func channel(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v / c.a * 255).rounded()))) }
            return RGBA(channel(c.r), channel(c.g), channel(c.b), UInt8(max(0, min(255, alpha))))
        }
        var random = SeededGenerator(state: 9)
        func unit() -> Double { Double(random.next() % 1_000_001) / 1_000_000 }
        for _ in 0..<100_000 {
            let a = random.next() % 7 == 0 ? Double(random.next() % 256) / 255 : unit()
            let c = PremultipliedColor(r: unit() * a, g: unit() * a, b: unit() * a, a: a)
            #expect(c.straight == reference(c))
        }
    }
}
