internal import CWebP

/// An animated WebP read back with `WebPAnimDecoder`: whole-canvas RGBA frames as a player shows them.
public struct DecodedWebP: Sendable {
    public var width: Int
    public var height: Int
    /// Straight RGBA frames.
    public var frames: [[UInt8]]
    /// Each frame's duration in milliseconds.
    public var durations: [Int]
    /// Times the animation plays; 0 = forever.
    public var loops: Int
}

public enum WebPAnimationDecoder {
    /// The number of frames (images) in a WebP animation, read from its header without decoding.
    public static func frameCount(_ bytes: [UInt8]) throws(WebPError) -> Int {
        var options = WebPAnimDecoderOptions()
        guard wavegen_WebPAnimDecoderOptionsInit(&options) != 0 else {
            throw WebPError(operation: "reading", message: "libwebp version mismatch")
        }
        let count: Int? = bytes.withUnsafeBufferPointer { buffer in
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            guard let decoder = wavegen_WebPAnimDecoderNew(&data, &options) else { return nil }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else { return nil }
            return Int(info.frame_count)
        }
        guard let count else { throw WebPError(operation: "reading", message: "not a valid WebP animation") }
        return count
    }

    public static func decode(_ bytes: [UInt8]) throws(WebPError) -> DecodedWebP {
        var options = WebPAnimDecoderOptions()
        guard wavegen_WebPAnimDecoderOptionsInit(&options) != 0 else {
            throw WebPError(operation: "reading", message: "libwebp version mismatch")
        }
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        let result: Result<DecodedWebP, WebPError> = bytes.withUnsafeBufferPointer { buffer in
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            guard let decoder = wavegen_WebPAnimDecoderNew(&data, &options) else {
                return .failure(WebPError(operation: "reading", message: "not a valid WebP animation"))
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else {
                return .failure(WebPError(operation: "reading", message: "cannot read the animation header"))
            }
            let width = Int(info.canvas_width), height = Int(info.canvas_height)
            var frames: [[UInt8]] = []
            var stamps: [Int] = [0]
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var pixels: UnsafeMutablePointer<UInt8>?
                var stamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &pixels, &stamp) != 0, let pixels else {
                    return .failure(WebPError(operation: "reading", message: "frame \(frames.count) is corrupt"))
                }
                frames.append(Array(UnsafeBufferPointer(start: pixels, count: width * height * 4)))
                stamps.append(Int(stamp))
            }
            let durations = (0..<frames.count).map { stamps[$0 + 1] - stamps[$0] }
            return .success(DecodedWebP(width: width, height: height, frames: frames, durations: durations,
                                        loops: Int(info.loop_count)))
        }
        return try result.get()
    }
}
