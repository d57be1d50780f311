internal import CWebP

/// Writes an animated WebP through `WebPAnimEncoder` from straight-RGBA frames, with exact
/// millisecond timestamps and the last frame's duration set explicitly.
public final class WebPAnimationEncoder {
    /// Encoding choices.
    public struct Options: Equatable, Sendable {
        public var lossless: Bool
        /// 0…100: visual quality for lossy, compression effort for lossless.
        public var quality: Float
        /// 0…6: the encoder's method; from 4 up it also searches the frame layouts for the smallest file.
        public var effort: Int
        /// Times the animation plays; 0 = forever.
        public var loops: Int

        public init(lossless: Bool = true, quality: Float = 100, effort: Int = 4, loops: Int = 0) {
            self.lossless = lossless
            self.quality = quality
            self.effort = effort
            self.loops = loops
        }
    }

    public let width: Int
    public let height: Int
    private var encoder: OpaquePointer?
    private var config = WebPConfig()
    private var timestamp = 0

    public init(width: Int, height: Int, options: Options) throws(WebPError) {
        guard (1...16383).contains(width), (1...16383).contains(height) else {
            throw WebPError(operation: "starting", message: "canvas \(width)×\(height) is outside 1…16383")
        }
        self.width = width
        self.height = height
        var animOptions = WebPAnimEncoderOptions()
        guard wavegen_WebPAnimEncoderOptionsInit(&animOptions) != 0, wavegen_WebPConfigInit(&config) != 0 else {
            throw WebPError(operation: "starting", message: "libwebp version mismatch")
        }
        animOptions.anim_params.loop_count = Int32(options.loops)
        animOptions.anim_params.bgcolor = 0x00000000
        // From the default effort up, the encoder also searches frame layouts for the smallest file
        // (as img2webp -min_size); lower efforts trade that for speed.
        animOptions.minimize_size = options.effort >= 4 ? 1 : 0
        // Lossy animations may keep some frames lossless where that is smaller.
        animOptions.allow_mixed = options.lossless ? 0 : 1
        config.lossless = options.lossless ? 1 : 0
        config.quality = options.quality
        config.method = Int32(max(0, min(6, options.effort)))
        config.exact = 1
        config.thread_level = 0
        guard WebPValidateConfig(&config) != 0 else {
            throw WebPError(operation: "configuring", message: "invalid settings (quality \(options.quality), effort \(options.effort))")
        }
        guard let encoder = wavegen_WebPAnimEncoderNew(Int32(width), Int32(height), &animOptions) else {
            throw WebPError(operation: "starting", message: "could not create the animation encoder (out of memory?)")
        }
        self.encoder = encoder
    }

    deinit {
        if let encoder { WebPAnimEncoderDelete(encoder) }
    }

    /// Adds a frame (width × height × 4 straight RGBA bytes) shown for `duration` milliseconds.
    public func add(rgba: [UInt8], duration: Int) throws(WebPError) {
        guard let encoder else { throw WebPError(operation: "adding a frame", message: "encoder finished") }
        guard rgba.count == width * height * 4 else {
            throw WebPError(operation: "adding a frame", message: "frame has \(rgba.count) bytes, expected \(width * height * 4)")
        }
        var picture = WebPPicture()
        guard wavegen_WebPPictureInit(&picture) != 0 else { throw WebPError(operation: "adding a frame", message: "libwebp version mismatch") }
        picture.use_argb = 1
        picture.width = Int32(width)
        picture.height = Int32(height)
        defer { WebPPictureFree(&picture) }
        let imported = rgba.withUnsafeBufferPointer { WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(width * 4)) }
        guard imported != 0 else { throw WebPError(operation: "adding a frame", message: "out of memory importing pixels") }
        guard WebPAnimEncoderAdd(encoder, &picture, Int32(timestamp), &config) != 0 else {
            throw WebPError(operation: "encoding a frame", message: lastError(encoder))
        }
        timestamp += duration
    }

    /// Closes the animation (the last frame lasts until the total duration) and returns the file's bytes.
    public func finish() throws(WebPError) -> [UInt8] {
        guard let encoder else { throw WebPError(operation: "finishing", message: "encoder finished") }
        defer {
            WebPAnimEncoderDelete(encoder)
            self.encoder = nil
        }
        guard WebPAnimEncoderAdd(encoder, nil, Int32(timestamp), nil) != 0 else {
            throw WebPError(operation: "finishing", message: lastError(encoder))
        }
        var data = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &data) != 0 else {
            throw WebPError(operation: "assembling", message: lastError(encoder))
        }
        defer { WebPDataClear(&data) }
        return Array(UnsafeBufferPointer(start: data.bytes, count: data.size))
    }

    private func lastError(_ encoder: OpaquePointer) -> String {
        WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "unknown error"
    }
}

extension WebPAnimationEncoder {
    /// The libwebp release encoding the files ("1.2.4"): a different one may write different bytes.
    public static let libraryVersion: String = {
        let v = Int(WebPGetEncoderVersion())
        return "\(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF)"
    }()
}
