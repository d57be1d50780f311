/// Counts the bits GIF's LZW would spend on a run of pixels, without writing them, so the encoder
/// can choose between two renditions of a frame. Mirrors giflib: a clear code first, codes that grow
/// up to 12 bits, and a reset when the table is full.
///
/// The string table is a small open-addressing hash (like giflib's), cleared in O(1) by bumping a
/// generation number, so it stays in cache.
struct LZWSizer {
    private static let slots = 1 << 13
    private var keys = [Int32](repeating: 0, count: slots)
    private var codes = [Int16](repeating: 0, count: slots)
    private var generations = [UInt32](repeating: 0, count: slots)
    private var generation: UInt32 = 0

    /// Bits for `pixels`; stops counting (returning a value above `limit`) once `limit` is passed.
    mutating func bits(_ pixels: UnsafeBufferPointer<UInt8>, minimumCodeSize: Int, limit: Int = .max) -> Int {
        guard !pixels.isEmpty else { return 0 }
        let clear = 1 << minimumCodeSize
        // giflib's state: the next code to assign, the current code width, and the code at which
        // the width grows (checked after each code is written, before the next is assigned).
        var next = clear + 2
        var codeSize = minimumCodeSize + 1
        var grow = 1 << codeSize
        var total = codeSize // the clear code
        generation &+= 1
        let mask = LZWSizer.slots - 1
        return keys.withUnsafeMutableBufferPointer { keys in
            codes.withUnsafeMutableBufferPointer { codes in
                generations.withUnsafeMutableBufferPointer { generations in
                    var gen = generation
                    var prefix = Int(pixels[0])
                    for i in 1..<pixels.count {
                        let key = Int32(prefix << 8 | Int(pixels[i]))
                        var h = Int((UInt32(bitPattern: key) &* 2_654_435_761) >> 19) & mask
                        var found = -1
                        while generations[h] == gen {
                            if keys[h] == key { found = Int(codes[h]); break }
                            h = (h + 1) & mask
                        }
                        if found >= 0 {
                            prefix = found
                            continue
                        }
                        total += codeSize
                        if next >= grow { codeSize += 1; grow <<= 1 }
                        if total > limit {
                            // The generations this count used stay spent, so the next starts fresh.
                            generation = gen
                            return total
                        }
                        if next >= 4095 {
                            // Table full: a clear code at the current width, then start over.
                            total += codeSize
                            gen &+= 1
                            next = clear + 2
                            codeSize = minimumCodeSize + 1
                            grow = 1 << codeSize
                        } else {
                            generations[h] = gen
                            keys[h] = key
                            codes[h] = Int16(next)
                            next += 1
                        }
                        prefix = Int(pixels[i])
                    }
                    generation = gen
                    // The last code, then end-of-information (written after any growth the last causes).
                    total += codeSize
                    if next >= grow { codeSize += 1 }
                    return total + codeSize
                }
            }
        }
    }
}
