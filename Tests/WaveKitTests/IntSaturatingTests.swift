import Testing
import WaveKit

/// Numbers from documents become `Int`s without trapping, however large, small or undefined.
@Suite struct IntSaturatingTests {
    @Test func inRangeValuesTruncateLikeInt() {
        #expect(Int(saturating: 0) == 0)
        #expect(Int(saturating: 3.9) == 3)
        #expect(Int(saturating: -3.9) == -3)
        #expect(Int(saturating: 1e15) == 1_000_000_000_000_000)
        #expect(Int(saturating: -9_223_372_036_854_775_808.0) == .min)
    }

    @Test func outOfRangeValuesClamp() {
        #expect(Int(saturating: 1e300) == .max)
        #expect(Int(saturating: 9_223_372_036_854_775_808.0) == .max)
        #expect(Int(saturating: .infinity) == .max)
        #expect(Int(saturating: -1e300) == .min)
        #expect(Int(saturating: -.infinity) == .min)
        #expect(Int(saturating: .nan) == 0)
        #expect(Int(saturating: (1 / 1e-300).rounded(.down)) == .max)
    }
}
