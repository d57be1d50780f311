/// SHA-256 (FIPS 180-4) of a byte sequence, in pure Swift: digests for pinned outputs and lock files.
public struct SHA256: Sendable {
    private var state: [UInt32] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    public init() {}

    /// Adds `bytes` to the message.
    public mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        length &+= UInt64(bytes.count)
        if bytes.withContiguousStorageIfAvailable({ absorb($0) }) == nil {
            Array(bytes).withUnsafeBufferPointer { absorb($0) }
        }
    }

    /// Compresses whole blocks straight from `p`, through `pending` only for a block that spans
    /// two updates.
    private mutating func absorb(_ p: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, p.count)
            pending.append(contentsOf: p[0..<take])
            offset = take
            guard pending.count == 64 else { return }
            pending.withUnsafeBufferPointer { compress($0, at: 0, blocks: 1) }
            pending.removeAll(keepingCapacity: true)
        }
        let blocks = (p.count - offset) / 64
        if blocks > 0 {
            compress(p, at: offset, blocks: blocks)
            offset += blocks * 64
        }
        if offset < p.count { pending.append(contentsOf: p[offset...]) }
    }

    /// The 32-byte digest of everything added.
    public func finalize() -> [UInt8] {
        var copy = self
        let bits = length &* 8
        var tail: [UInt8] = [0x80]
        tail += [UInt8](repeating: 0, count: (119 - Int(length % 64)) % 64)
        tail += (0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64($0))) }
        copy.length = 0
        copy.update(tail)
        return copy.state.flatMap { w in (0..<4).map { UInt8(truncatingIfNeeded: w >> (24 - 8 * UInt32($0))) } }
    }

    /// The lowercase hexadecimal digest of `bytes`.
    public static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var h = SHA256()
        h.update(bytes)
        return h.finalize().map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// Compresses `blocks` blocks of 64 bytes from `p` at `offset`, the state held in locals
    /// throughout.
    private mutating func compress(_ p: UnsafeBufferPointer<UInt8>, at offset: Int, blocks: Int) {
        @inline(__always) func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { x >> n | x << (32 - n) }
        var (h0, h1, h2, h3, h4, h5, h6, h7) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        SHA256.k.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                for block in 0..<blocks {
                    let base = offset + 64 * block
                    for t in 0..<16 {
                        let i = base + 4 * t
                        w[t] = UInt32(p[i]) << 24 | UInt32(p[i + 1]) << 16 | UInt32(p[i + 2]) << 8 | UInt32(p[i + 3])
                    }
                    for t in 16..<64 {
                        let s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
                        let s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
                        w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
                    }
                    var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
                    for t in 0..<64 {
                        let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ k[t] &+ w[t]
                        let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                        (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
                    }
                    h0 = h0 &+ a; h1 = h1 &+ b; h2 = h2 &+ c; h3 = h3 &+ d
                    h4 = h4 &+ e; h5 = h5 &+ f; h6 = h6 &+ g; h7 = h7 &+ h
                }
            }
        }
        state = [h0, h1, h2, h3, h4, h5, h6, h7]
    }
}
