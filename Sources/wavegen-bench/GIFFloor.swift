import CGIF
import WaveKit

/// The encoder floor: giflib writing the same index frames with no optimisation at all — EGifOpen to
/// memory, one screen descriptor with the palette, then for every frame a graphics control block and
/// a full-canvas image through EGifPutLine. Nothing wavegen's GIF encoder does can be cheaper than this.
enum GIFFloor {
    private final class Sink {
        var bytes: [UInt8] = []
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Encodes `frames` (each width × height indices into `palette`) and returns the file size.
    static func encode(frames: [[UInt8]], width: Int, height: Int, palette: Palette, delays: [Int]) throws -> Int {
        let sink = Sink()
        var error: Int32 = 0
        let user = Unmanaged.passUnretained(sink).toOpaque()
        guard let file = EGifOpen(user, { gif, data, length in
            guard let gif, let data, length > 0 else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(gif.pointee.UserData).takeUnretainedValue()
            sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return length
        }, &error) else {
            throw Failure(description: "EGifOpen failed (\(error))")
        }
        var closed = false
        defer { if !closed { _ = EGifCloseFile(file, &error) } }
        EGifSetGifVersion(file, true)
        var bits = 1
        while (1 << bits) < palette.colors.count { bits += 1 }
        var table = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: 1 << bits)
        for (i, c) in palette.colors.enumerated() { table[i] = GifColorType(Red: c.r, Green: c.g, Blue: c.b) }
        guard let map = GifMakeMapObject(Int32(1 << bits), &table) else { throw Failure(description: "GifMakeMapObject failed") }
        defer { GifFreeMapObject(map) }
        guard EGifPutScreenDesc(file, Int32(width), Int32(height), Int32(bits), 0, map) == GIF_OK else {
            throw Failure(description: "EGifPutScreenDesc failed (\(file.pointee.Error))")
        }
        // EGifPutLine masks the pixels in place, so each frame goes through a scratch copy.
        var line = [UInt8](repeating: 0, count: width * height)
        let transparent = Int32(palette.transparentIndex ?? Int(NO_TRANSPARENT_COLOR))
        for (k, frame) in frames.enumerated() {
            var gcb = GraphicsControlBlock(DisposalMode: Int32(DISPOSE_DO_NOT), UserInputFlag: false,
                                           DelayTime: Int32(delays[k]), TransparentColor: transparent)
            var ext = [GifByteType](repeating: 0, count: 4)
            let length = EGifGCBToExtension(&gcb, &ext)
            guard EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, Int32(length), &ext) == GIF_OK,
                  EGifPutImageDesc(file, 0, 0, Int32(width), Int32(height), false, nil) == GIF_OK else {
                throw Failure(description: "writing frame \(k) failed (\(file.pointee.Error))")
            }
            line.withUnsafeMutableBufferPointer { dst in
                frame.withUnsafeBufferPointer { src in dst.baseAddress!.update(from: src.baseAddress!, count: src.count) }
            }
            guard EGifPutLine(file, &line, Int32(line.count)) == GIF_OK else {
                throw Failure(description: "compressing frame \(k) failed (\(file.pointee.Error))")
            }
        }
        closed = true
        guard EGifCloseFile(file, &error) == GIF_OK else { throw Failure(description: "EGifCloseFile failed (\(error))") }
        return sink.bytes.count
    }
}
