internal import CGIF

/// A GIF read back with giflib's `DGifSlurp` and played the way a browser does: each frame drawn over
/// the canvas, honouring transparency and disposal. Used by tests and by `--check`.
public struct DecodedGIF: Sendable {
    public var width: Int
    public var height: Int
    /// Whole-canvas frames as straight RGBA bytes (transparent pixels are 0,0,0,0).
    public var frames: [[UInt8]]
    /// Delay of each frame in centiseconds.
    public var delays: [Int]
    /// NETSCAPE2.0 repeat count, or nil when the file has no loop block (plays once).
    public var repeats: Int?
    /// "GIF87a" or "GIF89a".
    public var version: String
    /// Entries in the global color table.
    public var globalColorCount: Int

    /// Times the animation loops: 0 = forever.
    public var loops: Int { repeats.map { $0 == 0 ? 0 : $0 + 1 } ?? 1 }
}

public enum GIFDecoder {
    private final class Source {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    public static func decode(_ bytes: [UInt8]) throws(GIFError) -> DecodedGIF {
        let source = Source(bytes)
        var error: Int32 = 0
        let user = Unmanaged.passUnretained(source).toOpaque()
        guard let gif = DGifOpen(user, { gif, buffer, length in
            guard let gif, let buffer else { return 0 }
            let src = Unmanaged<Source>.fromOpaque(gif.pointee.UserData).takeUnretainedValue()
            let n = max(0, min(Int(length), src.bytes.count - src.offset))
            if n > 0 { src.bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + src.offset, count: n) } }
            src.offset += n
            return Int32(n)
        }, &error) else {
            throw GIFError(operation: "opening for reading", code: error)
        }
        defer { var e: Int32 = 0; _ = DGifCloseFile(gif, &e) }
        guard DGifSlurp(gif) == GIF_OK else { throw GIFError(operation: "reading", code: gif.pointee.Error) }

        let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
        let version = String(decoding: bytes.prefix(6), as: UTF8.self)
        let global = gif.pointee.SColorMap
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var frames: [[UInt8]] = []
        var delays: [Int] = []
        var repeats: Int?
        for i in 0..<Int(gif.pointee.ImageCount) {
            let image = gif.pointee.SavedImages[i]
            for e in 0..<Int(image.ExtensionBlockCount) {
                let block = image.ExtensionBlocks[e]
                if block.Function == APPLICATION_EXT_FUNC_CODE, block.ByteCount == 11,
                   e + 1 < Int(image.ExtensionBlockCount),
                   String(decoding: UnsafeBufferPointer(start: block.Bytes, count: 11), as: UTF8.self) == "NETSCAPE2.0" {
                    let sub = image.ExtensionBlocks[e + 1]
                    if sub.ByteCount >= 3 { repeats = Int(sub.Bytes[1]) | Int(sub.Bytes[2]) << 8 }
                }
            }
            var gcb = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: -1)
            _ = DGifSavedExtensionToGCB(gif, Int32(i), &gcb)
            let d = image.ImageDesc
            guard let map = d.ColorMap ?? global else { throw GIFError(operation: "reading", message: "frame \(i) has no color table") }
            // Only "restore to previous" needs the canvas as it was.
            let before = gcb.DisposalMode == Int32(DISPOSE_PREVIOUS) ? canvas : []
            for y in 0..<Int(d.Height) {
                for x in 0..<Int(d.Width) {
                    let v = Int(image.RasterBits[y * Int(d.Width) + x])
                    let cx = Int(d.Left) + x, cy = Int(d.Top) + y
                    guard v != Int(gcb.TransparentColor), cx < width, cy < height, v < Int(map.pointee.ColorCount) else { continue }
                    let c = map.pointee.Colors[v]
                    let p = (cy * width + cx) * 4
                    canvas[p] = c.Red
                    canvas[p + 1] = c.Green
                    canvas[p + 2] = c.Blue
                    canvas[p + 3] = 255
                }
            }
            frames.append(canvas)
            delays.append(Int(gcb.DelayTime))
            switch gcb.DisposalMode {
            case Int32(DISPOSE_BACKGROUND):
                for y in Int(d.Top)..<min(height, Int(d.Top + d.Height)) {
                    for x in Int(d.Left)..<min(width, Int(d.Left + d.Width)) {
                        for k in 0..<4 { canvas[(y * width + x) * 4 + k] = 0 }
                    }
                }
            case Int32(DISPOSE_PREVIOUS):
                canvas = before
            default:
                break
            }
        }
        return DecodedGIF(width: width, height: height, frames: frames, delays: delays, repeats: repeats,
                          version: version, globalColorCount: global.map { Int($0.pointee.ColorCount) } ?? 0)
    }
}
