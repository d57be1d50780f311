/// Counts the bits GIF's LZW would spend on a run of pixels, without writing them, so the encoder
/// can choose between two renditions of a frame. Mirrors giflib: a clear code first, codes that grow
/// up to 12 bits, and a reset when the table is full.
struct LZWSizer {
    /// Code for each (prefix code, next pixel) pair, -1 when absent; reset between runs.
    private var table = [Int32](repeating: -1, count: 4096 * 256)
    private var used: [Int] = []

    mutating func bits(_ pixels: [UInt8], minimumCodeSize: Int) -> Int {
        guard !pixels.isEmpty else { return 0 }
        defer {
            for s in used { table[s] = -1 }
            used.removeAll(keepingCapacity: true)
        }
        let clear = 1 << minimumCodeSize
        var next = clear + 2
        var codeSize = minimumCodeSize + 1
        var total = codeSize // the clear code
        var prefix = Int(pixels[0])
        for i in 1..<pixels.count {
            let p = Int(pixels[i])
            let slot = prefix << 8 | p
            let found = table[slot]
            if found >= 0 {
                prefix = Int(found)
                continue
            }
            total += codeSize
            if next < 4096 {
                table[slot] = Int32(next)
                used.append(slot)
                if next == 1 << codeSize && codeSize < 12 { codeSize += 1 }
                next += 1
            } else {
                total += codeSize
                for s in used { table[s] = -1 }
                used.removeAll(keepingCapacity: true)
                next = clear + 2
                codeSize = minimumCodeSize + 1
            }
            prefix = p
        }
        return total + 2 * codeSize // last code and end-of-information
    }
}
