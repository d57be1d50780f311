internal import CGIF

/// The simplest GIF giflib writes: the palette as the global table and every frame as a full-canvas
/// image, no cropping, keying, merging or reordering, each coded at the table's depth. It is the
/// floor `GIFEncoder`'s optimisations are measured against, not something to ship.
public enum PlainGIFEncoder {
    /// Encodes `frames` (each `width` × `height` indices into `colors`), frame k shown for
    /// `delays[k]` centiseconds, and returns the file's bytes.
    public static func encode(frames: [[UInt8]], width: Int, height: Int, colors: [RGBA8], transparentIndex: Int?,
                              delays: [Int]) throws(GIFError) -> [UInt8] {
        guard frames.count == delays.count else {
            throw GIFError(operation: "starting", message: "\(frames.count) frames but \(delays.count) delays")
        }
        let stream = try GIFStream(width: width, height: height, colors: colors)
        let whole = PixelRect(x: 0, y: 0, width: width, height: height)
        for (k, frame) in frames.enumerated() {
            guard frame.count == width * height else {
                throw GIFError(operation: "adding a frame", message: "frame has \(frame.count) pixels, expected \(width * height)")
            }
            try stream.putFrame(frame, rect: whole, codeSize: stream.tableBits, delay: delays[k],
                                disposal: Int32(DISPOSE_DO_NOT), transparentIndex: transparentIndex)
        }
        return try stream.close()
    }
}
