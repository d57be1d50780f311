/// GIF's LZW, coded the way giflib codes it (a clear code first, codes that grow up to 12 bits, a
/// clear code and a fresh table when code 4095 would be assigned, the last code and
/// end-of-information, data sub-blocks of 255 bytes), so that a frame coded here is byte for byte
/// the frame giflib's `EGifPutLine` writes. Coding stops early, without a result, once it has spent
/// more bits than a limit: the encoder codes each rendition of a frame with the best so far as the
/// limit and keeps the winner's bytes, instead of counting every rendition and then coding the
/// winner again.
///
/// The string table is one array of packed 32-bit slots (key and code in one word), an
/// open-addressing hash of 8192 slots (32 KiB, so it stays in the first-level cache), so a probe
/// is one load; it is emptied by zeroing the slots filled since it was last emptied (a live slot
/// is never 0: its code is above the clear code). `LZWSizer` is the plain counting form it is
/// tested against.
///
/// A string followed by its own last pixel (a run going on) is not hashed: each code knows its last
/// pixel and the code of that longer string (`runs`), so a run costs one load a pixel. Every string
/// is in exactly one of the two: the run child's place or the hash.
struct LZWCoder {
    private static let slots = 1 << 13
    /// Three tables in one array (one buffer to open, so the coding loop stays one function):
    /// - the hash, `slots` slots from 0: key (prefix code << 8 | pixel, 20 bits) above code (12
    ///   bits); 0 when empty;
    /// - from `slots`, the slots filled since the hash was last emptied (at most 4096 codes a table);
    /// - from `slots` + 4096, the runs: each code's last pixel (above 16 bits), and the code of its
    ///   string followed by that pixel (the low 16 bits; 0: not in the table).
    private var tables = [UInt32](repeating: 0, count: slots + 2 * 4096)
    /// How many of the filled list hold a filled slot (a coding stopped at its limit leaves some).
    private var filledCount = 0
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
        // At most one 12-bit code a pixel, plus the clear codes, the end and the length bytes.
        let bound = (pixels.count + 2) * 3 / 2 + (pixels.count + 2) * 3 / 2 / 255 + 16
        if storage.count < bound { storage = [UInt8](repeating: 0, count: bound) }
        let before = filledCount
        let (finished, count, total, used) = storage.withUnsafeMutableBufferPointer { out in
            tables.withUnsafeMutableBufferPointer { tables in
                LZWCoder.code(pixels, minimumCodeSize: minimumCodeSize, limit: limit, into: out.baseAddress!,
                              tables: tables.baseAddress!, filled: before)
            }
        }
        filledCount = used
        guard finished else { return nil }
        length = count
        return total
    }

    /// `code` on raw buffers, every variable its own (so the loop is one function): the blocks
    /// written from `out`, the three tables at `tables`, `filled` slots of the hash filled before.
    /// Returns whether it finished within the limit, the bytes and bits written, and the slots filled.
    private static func code(_ pixels: UnsafeBufferPointer<UInt8>, minimumCodeSize: Int, limit: Int,
                             into out: UnsafeMutablePointer<UInt8>, tables: UnsafeMutablePointer<UInt32>,
                             filled used: Int) -> (finished: Bool, count: Int, total: Int, used: Int) {
        let clear = 1 << minimumCodeSize
        let mask = LZWCoder.slots - 1
        let table = tables, filled = table + LZWCoder.slots, runs = filled + 4096
        var next = clear + 2
        var codeSize = minimumCodeSize + 1
        var grow = 1 << codeSize
        var total = 0, count = 1, used = used
        /// An empty table: the slots filled so far zeroed, and the single pixels' codes without
        /// run children (a longer code's entry is set when the code is made).
        @inline(__always) func fresh() {
            for i in 0..<used { table[Int(filled[i])] = 0 }
            used = 0
            for c in 0..<clear { runs[c] = UInt32(c) << 16 }
        }
        // The open sub-block: where its length byte is, and how many bytes it holds.
        var lengthAt = 0, inBlock = 0
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
        /// Writes `code`, the width growing after it as giflib's does: nil once past the limit,
        /// false when the table was full (a clear code written, the table emptied), else true (room
        /// for the next code).
        @inline(__always) func emit(_ code: Int) -> Bool? {
            put(code)
            if next >= grow { codeSize += 1; grow <<= 1 }
            if total > limit { return nil }
            guard next >= 4095 else { return true }
            // Table full: a clear code at the current width, then start over.
            put(clear)
            fresh()
            next = clear + 2
            codeSize = minimumCodeSize + 1
            grow = 1 << codeSize
            return false
        }
        fresh()
        put(clear)
        var prefix = Int(pixels[0])
        for i in 1..<pixels.count {
            let pixel = Int(pixels[i])
            let run = runs[prefix]
            if pixel == Int(run >> 16) {
                // The run goes on: its string, or a new code for it.
                let child = Int(run & 0xFFFF)
                if child != 0 {
                    prefix = child
                    continue
                }
                guard let room = emit(prefix) else { return (false, count, total, used) }
                if room {
                    runs[prefix] = run | UInt32(next)
                    runs[next] = UInt32(pixel) << 16
                    next += 1
                }
                prefix = pixel
                continue
            }
            let key = UInt32(truncatingIfNeeded: prefix << 8 | pixel)
            var h = Int((key &* 2_654_435_761) >> 19) & mask
            var found = -1
            while true {
                let slot = table[h]
                if slot == 0 { break }
                if slot >> 12 == key { found = Int(slot & 0xFFF); break }
                h = (h + 1) & mask
            }
            if found >= 0 {
                prefix = found
                continue
            }
            guard let room = emit(prefix) else { return (false, count, total, used) }
            if room {
                table[h] = key << 12 | UInt32(next)
                filled[used] = UInt32(h)
                used += 1
                runs[next] = UInt32(pixel) << 16
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
        return (true, count, total, used)
    }
}
