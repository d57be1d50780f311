/// GIF's LZW, coded the way giflib codes it (a clear code first, codes that grow up to 12 bits, a
/// clear code and a fresh table when code 4095 would be assigned, the last code and
/// end-of-information, data sub-blocks of 255 bytes), so that a frame coded here is byte for byte
/// the frame giflib's `EGifPutLine` writes. Coding stops early, without a result, once it has spent
/// more bits than a limit: the encoder codes each rendition of a frame with the best so far as the
/// limit and keeps the winner's bytes, instead of counting every rendition and then coding the
/// winner again.
///
/// The string table is one array of packed slots (generation, key and code in one word), an
/// open-addressing hash emptied in O(1) by bumping the generation, so a probe is one load.
/// `LZWSizer` is the plain counting form it is tested against.
struct LZWCoder {
    private static let slots = 1 << 13
    /// Each slot: generation (high 32 bits), key (prefix code << 8 | pixel, 20 bits), code (12 bits).
    private var table = [UInt64](repeating: 0, count: slots)
    /// The generation of the table's live slots, in the high 32 bits (0 is never live).
    private var generation: UInt64 = 0
    /// Room for the coded bytes; the first `length` hold the last frame coded.
    private var storage: [UInt8] = []
    private var length = 0

    /// The last frame coded: its data sub-blocks, each a length byte and up to 255 bytes (no terminator).
    var blocks: ArraySlice<UInt8> { storage[0..<length] }

    /// Codes `pixels` (each below 2^`minimumCodeSize`) into `blocks`; returns the bits the codes
    /// take, or nil (leaving `blocks` unspecified) once they pass `limit`.
    mutating func code(_ pixels: UnsafeBufferPointer<UInt8>, minimumCodeSize: Int, limit: Int = .max) -> Int? {
        length = 0
        guard !pixels.isEmpty else { return 0 }
        let clear = 1 << minimumCodeSize
        // At most one 12-bit code a pixel, plus the clear codes, the end and the length bytes.
        let bound = (pixels.count + 2) * 3 / 2 + (pixels.count + 2) * 3 / 2 / 255 + 16
        if storage.count < bound { storage = [UInt8](repeating: 0, count: bound) }
        let mask = LZWCoder.slots - 1
        var gen = generation
        var next = clear + 2
        var codeSize = minimumCodeSize + 1
        var grow = 1 << codeSize
        var total = 0
        var count = 0
        let finished: Bool = storage.withUnsafeMutableBufferPointer { out in
            table.withUnsafeMutableBufferPointer { table in
                /// A fresh, empty table generation (the table is zeroed when the counter wraps).
                @inline(__always) func fresh() {
                    gen &+= 1 << 32
                    if gen == 0 {
                        for i in 0..<table.count { table[i] = 0 }
                        gen = 1 << 32
                    }
                }
                // The open sub-block: where its length byte is, and how many bytes it holds.
                var lengthAt = 0, inBlock = 0
                count = 1
                var shift: UInt64 = 0, held = 0
                @inline(__always) func byte(_ value: UInt8) {
                    if inBlock == 255 {
                        out[lengthAt] = 255
                        lengthAt = count
                        count += 1
                        inBlock = 0
                    }
                    out[count] = value
                    count += 1
                    inBlock += 1
                }
                @inline(__always) func put(_ code: Int) {
                    shift |= UInt64(code) << UInt64(held)
                    held += codeSize
                    total += codeSize
                    while held >= 8 {
                        byte(UInt8(truncatingIfNeeded: shift))
                        shift >>= 8
                        held -= 8
                    }
                }
                fresh()
                put(clear)
                var prefix = Int(pixels[0])
                for i in 1..<pixels.count {
                    let pixel = Int(pixels[i])
                    let key = UInt64(prefix << 8 | pixel)
                    var h = Int((UInt32(truncatingIfNeeded: key) &* 2_654_435_761) >> 19) & mask
                    var found = -1
                    while true {
                        let slot = table[h]
                        if slot & 0xFFFF_FFFF_0000_0000 != gen { break }
                        if (slot >> 12) & 0xF_FFFF == key { found = Int(slot & 0xFFF); break }
                        h = (h + 1) & mask
                    }
                    if found >= 0 {
                        prefix = found
                        continue
                    }
                    put(prefix)
                    if next >= grow { codeSize += 1; grow <<= 1 }
                    if total > limit { return false }
                    if next >= 4095 {
                        // Table full: a clear code at the current width, then start over.
                        put(clear)
                        fresh()
                        next = clear + 2
                        codeSize = minimumCodeSize + 1
                        grow = 1 << codeSize
                    } else {
                        table[h] = gen | key << 12 | UInt64(next)
                        next += 1
                    }
                    prefix = pixel
                }
                // The last code, then end-of-information (written after any growth the last causes).
                put(prefix)
                if next >= grow { codeSize += 1 }
                put(clear + 1)
                if held > 0 { byte(UInt8(truncatingIfNeeded: shift)) }
                out[lengthAt] = UInt8(inBlock)
                return true
            }
        }
        generation = gen
        guard finished else { return nil }
        length = count
        return total
    }
}
