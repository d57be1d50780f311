/// A set of palette indices (0…255) as four 64-bit words.
struct ColorSet: Hashable, Sendable {
    private var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0, w3: UInt64 = 0

    init() {}

    init(all count: Int) {
        for i in 0..<count { insert(i) }
    }

    var words: [UInt64] { [w0, w1, w2, w3] }

    mutating func insert(_ i: Int) {
        let bit: UInt64 = 1 << UInt64(i & 63)
        switch i >> 6 {
        case 0: w0 |= bit
        case 1: w1 |= bit
        case 2: w2 |= bit
        default: w3 |= bit
        }
    }

    func contains(_ i: Int) -> Bool {
        let bit: UInt64 = 1 << UInt64(i & 63)
        switch i >> 6 {
        case 0: return w0 & bit != 0
        case 1: return w1 & bit != 0
        case 2: return w2 & bit != 0
        default: return w3 & bit != 0
        }
    }

    var count: Int { w0.nonzeroBitCount + w1.nonzeroBitCount + w2.nonzeroBitCount + w3.nonzeroBitCount }
    /// The entries in the set, ascending.
    var members: [Int] {
        var out: [Int] = []
        out.reserveCapacity(count)
        forEach { out.append($0) }
        return out
    }

    /// `body` for each entry in the set, ascending (`members` without the array).
    @inline(__always)
    func forEach(_ body: (Int) -> Void) {
        ColorSet.forEachBit(of: w0, from: 0, body)
        ColorSet.forEachBit(of: w1, from: 64, body)
        ColorSet.forEachBit(of: w2, from: 128, body)
        ColorSet.forEachBit(of: w3, from: 192, body)
    }

    @inline(__always)
    private static func forEachBit(of word: UInt64, from first: Int, _ body: (Int) -> Void) {
        var w = word
        while w != 0 {
            body(first | w.trailingZeroBitCount)
            w &= w - 1
        }
    }

    /// Whether `words` comes before `other.words` lexicographically.
    func wordsPrecede(_ o: ColorSet) -> Bool {
        (w0, w1, w2, w3) < (o.w0, o.w1, o.w2, o.w3)
    }

    func union(_ o: ColorSet) -> ColorSet {
        var r = self
        r.w0 |= o.w0
        r.w1 |= o.w1
        r.w2 |= o.w2
        r.w3 |= o.w3
        return r
    }

    func isSubset(of o: ColorSet) -> Bool {
        w0 & ~o.w0 == 0 && w1 & ~o.w1 == 0 && w2 & ~o.w2 == 0 && w3 & ~o.w3 == 0
    }
}
