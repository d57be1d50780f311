internal import CGIF

/// Owns a giflib encoder writing to memory; the handle is closed on every path.
final class GIFStream {
    private final class Sink {
        var bytes: [UInt8] = []
    }

    private var file: UnsafeMutablePointer<GifFileType>?
    private let sink = Sink()
    private let width: Int
    private let height: Int
    /// Bits per entry of the global color table.
    let tableBits: Int

    /// Bits per entry of the smallest color table holding `entries` colors.
    static func tableBits(entries: Int) -> Int {
        var bits = 1
        while (1 << bits) < entries { bits += 1 }
        return bits
    }

    init(width: Int, height: Int, colors: [RGBA8]) throws(GIFError) {
        self.width = width
        self.height = height
        var error: Int32 = 0
        let user = Unmanaged.passUnretained(sink).toOpaque()
        guard let file = EGifOpen(user, { gif, data, length in
            guard let gif, let data, length > 0 else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(gif.pointee.UserData).takeUnretainedValue()
            sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return length
        }, &error) else {
            throw GIFError(operation: "opening the encoder", code: error)
        }
        self.file = file
        EGifSetGifVersion(file, true)
        let bits = GIFStream.tableBits(entries: colors.count)
        tableBits = bits
        var table = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: 1 << bits)
        for (i, c) in colors.enumerated() { table[i] = GifColorType(Red: c.r, Green: c.g, Blue: c.b) }
        guard let map = GifMakeMapObject(Int32(1 << bits), &table) else {
            abandon()
            throw GIFError(operation: "making the color map", message: "out of memory")
        }
        defer { GifFreeMapObject(map) }
        guard EGifPutScreenDesc(file, Int32(width), Int32(height), Int32(bits), 0, map) == GIF_OK else {
            let code = file.pointee.Error
            abandon()
            throw GIFError(operation: "writing the screen descriptor", code: code)
        }
    }

    deinit { abandon() }

    private func check(_ result: Int32, _ operation: String) throws(GIFError) {
        guard result == GIF_OK else { throw GIFError(operation: operation, code: file?.pointee.Error ?? 0) }
    }

    /// The NETSCAPE2.0 application block: `repeats` extra plays, 0 = forever.
    func putLoopBlock(repeats: Int) throws(GIFError) {
        guard let file else { throw GIFError(operation: "writing the loop block", message: "encoder closed") }
        var id = Array("NETSCAPE2.0".utf8)
        var data: [UInt8] = [1, UInt8(repeats & 0xFF), UInt8((repeats >> 8) & 0xFF)]
        try check(EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE), "writing the loop block")
        try check(EGifPutExtensionBlock(file, Int32(id.count), &id), "writing the loop block")
        try check(EGifPutExtensionBlock(file, Int32(data.count), &data), "writing the loop block")
        try check(EGifPutExtensionTrailer(file), "writing the loop block")
    }

    /// The LZW minimum code size for pixels whose largest index is `maxIndex`: the fewest bits that
    /// hold it, at least 2 (GIF's floor).
    static func minimumCodeSize(maxIndex: Int) -> Int {
        var bits = 2
        while (1 << bits) <= maxIndex { bits += 1 }
        return bits
    }

    /// One image: its graphics control extension, descriptor and LZW data. `codeSize` is the LZW
    /// minimum code size, `minimumCodeSize(maxIndex:)` of the pixels (not the color table's depth:
    /// a frame that uses only low entries codes every pixel in fewer bits).
    func putFrame(_ pixels: [UInt8], rect: PixelRect, codeSize: Int, delay: Int, disposal: Int32, transparentIndex: Int?) throws(GIFError) {
        let file = try putImageHeader(rect: rect, codeSize: codeSize, delay: delay, disposal: disposal, transparentIndex: transparentIndex)
        var line = pixels
        try check(EGifPutLine(file, &line, Int32(line.count)), "compressing a frame")
    }

    /// One image whose LZW data is already coded: `blocks` holds its data sub-blocks (each a length
    /// byte and up to 255 bytes, without the terminating empty block), coded with `codeSize`.
    ///
    /// Written here byte for byte as giflib writes them (`plainPutFrame`, which it is tested
    /// against): the graphics control extension, the image descriptor, the code size byte giflib
    /// takes from the narrowed color map, the blocks and the terminator. giflib's per-image set-up
    /// (a small write per field, and clearing its coder's 32 KiB hash, which a coded image never
    /// feeds) is skipped; giflib writes the header before and the trailer after, to the same bytes.
    func putFrame(blocks: [UInt8], rect: PixelRect, codeSize: Int, delay: Int, disposal: Int32, transparentIndex: Int?) throws(GIFError) {
        guard file != nil else { throw GIFError(operation: "writing a frame", message: "encoder closed") }
        @inline(__always) func word(_ v: Int) -> (UInt8, UInt8) { (UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)) }
        // EGifGCBToExtension's packing: the transparent flag, no user input, the disposal in bits 2–4.
        let packed = UInt8(transparentIndex == nil ? 0 : 1) | UInt8(truncatingIfNeeded: (Int(disposal) & 7) << 2)
        let (delayLow, delayHigh) = word(delay)
        let (x0, x1) = word(rect.x), (y0, y1) = word(rect.y), (w0, w1) = word(rect.width), (h0, h1) = word(rect.height)
        let size = UInt8(max(2, min(tableBits, codeSize)))
        let head: [UInt8] = [0x21, 0xF9, 4, packed, delayLow, delayHigh, UInt8(truncatingIfNeeded: transparentIndex ?? -1), 0,
                             0x2C, x0, x1, y0, y1, w0, w1, h0, h1, 0, size]
        sink.bytes.append(contentsOf: head)
        sink.bytes.append(contentsOf: blocks)
        sink.bytes.append(0)
    }

    /// `putFrame(blocks:…)` through giflib's calls, as first written: the plain form.
    func plainPutFrame(blocks: [UInt8], rect: PixelRect, codeSize: Int, delay: Int, disposal: Int32, transparentIndex: Int?) throws(GIFError) {
        let file = try putImageHeader(rect: rect, codeSize: codeSize, delay: delay, disposal: disposal, transparentIndex: transparentIndex)
        // The descriptor wrote the code size byte; giflib's own coder is set up but never fed (what
        // it buffered is dropped), and the blocks go out as they are, then the terminator.
        var start = 0
        try blocks.withUnsafeBufferPointer { (b) throws(GIFError) in
            while start < b.count {
                let block = b.baseAddress! + start
                try check(start == 0 ? EGifPutCode(file, Int32(codeSize), block) : EGifPutCodeNext(file, block), "writing a frame's data")
                start += Int(b[start]) + 1
            }
        }
        try check(EGifPutCodeNext(file, nil), "writing a frame's data")
    }

    /// The graphics control extension and image descriptor of one image; returns the handle for its data.
    private func putImageHeader(rect: PixelRect, codeSize: Int, delay: Int, disposal: Int32,
                                transparentIndex: Int?) throws(GIFError) -> UnsafeMutablePointer<GifFileType> {
        guard let file else { throw GIFError(operation: "writing a frame", message: "encoder closed") }
        var gcb = GraphicsControlBlock(DisposalMode: disposal, UserInputFlag: false, DelayTime: Int32(delay),
                                       TransparentColor: Int32(transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
        var ext = [GifByteType](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&gcb, &ext)
        try check(EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, Int32(length), &ext), "writing a frame's control block")
        // giflib takes the code size from the color map when the descriptor is written (and masks
        // pixels to it), so the global map's depth is narrowed for this one image and restored.
        guard let map = file.pointee.SColorMap else { throw GIFError(operation: "writing a frame", message: "no color table") }
        map.pointee.BitsPerPixel = Int32(min(tableBits, codeSize))
        defer { map.pointee.BitsPerPixel = Int32(tableBits) }
        try check(EGifPutImageDesc(file, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height), false, nil),
                  "writing an image descriptor")
        return file
    }

    /// Writes the trailer and returns the bytes.
    func close() throws(GIFError) -> [UInt8] {
        guard let f = file else { throw GIFError(operation: "closing", message: "encoder closed") }
        file = nil
        var error: Int32 = 0
        guard EGifCloseFile(f, &error) == GIF_OK else { throw GIFError(operation: "closing", code: error) }
        return sink.bytes
    }

    /// Closes the handle and discards what was written (after a failure, or when never finished).
    private func abandon() {
        guard let f = file else { return }
        file = nil
        var error: Int32 = 0
        _ = EGifCloseFile(f, &error)
    }
}
