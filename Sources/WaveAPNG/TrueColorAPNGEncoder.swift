/// Animated PNG in true color (8-bit RGBA, colour type 6), for frames whose colors no palette
/// holds (scenes with gradients). Each frame after the first is the rectangle that differs from the
/// one before, written as it is (`APNG_BLEND_OP_SOURCE`) over the kept canvas
/// (`APNG_DISPOSE_OP_NONE`), so every frame shows exactly the pixels given; identical frames merge.
/// Rows are filtered with each strategy the effort allows (up to none, sub, up, Paeth and per-row
/// adaptive) and the smallest is deflated again as `APNGEncoder` does.
public final class TrueColorAPNGEncoder {
    public let width: Int
    public let height: Int
    public let options: APNGEncoder.Options
    public private(set) var stats = APNGEncoder.Stats()
    private let trial: Deflater
    private let finals: FinalDeflate
    private let strategies: [RowFilter.Strategy]
    private var frames: [EncodedFrame] = []
    /// The previous frame as one 32-bit word a pixel.
    private var previous: [UInt32] = []

    public init(width: Int, height: Int, options: APNGEncoder.Options = APNGEncoder.Options()) throws(APNGError) {
        try APNGEncoder.check(width: width, height: height)
        try APNGEncoder.check(options)
        self.width = width
        self.height = height
        self.options = options
        let engines = FrameCandidates.engines(effort: options.effort)
        trial = Deflater(engines.trial)
        finals = FinalDeflate(engines.final)
        strategies = options.effort == 0
            ? [.uniform(.sub)]
            : [.uniform(.none), .uniform(.sub), .uniform(.up), .uniform(.paeth), .adaptive]
        stats.bitDepth = 8
    }

    /// Adds the next frame: `width` × `height` straight RGBA pixels (4 bytes each), shown for
    /// `delay` ticks.
    public func add(rgba: [UInt8], delay: Int) throws(APNGError) {
        guard rgba.count == width * height * 4 else {
            throw APNGError("frame \(stats.framesIn) has \(rgba.count) bytes, expected \(width * height * 4)")
        }
        guard delay >= 0 else { throw APNGError("frame \(stats.framesIn) has a negative delay") }
        var words = [UInt32](repeating: 0, count: width * height)
        for i in 0..<words.count {
            // A fully transparent pixel is written as transparent black, whatever its color bytes.
            let a = rgba[i * 4 + 3]
            words[i] = a == 0 ? 0 : UInt32(rgba[i * 4]) | UInt32(rgba[i * 4 + 1]) << 8 | UInt32(rgba[i * 4 + 2]) << 16 | UInt32(a) << 24
        }
        stats.framesIn += 1
        let rect: Rect
        if frames.isEmpty {
            rect = Rect(x: 0, y: 0, width: width, height: height)
        } else if let changed = Rect.differing(words, previous, width: width, height: height) {
            rect = changed
        } else {
            frames[frames.count - 1].delay += delay
            stats.framesMerged += 1
            return
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(rect.width * rect.height * 4)
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) {
                let w = words[y * width + x]
                bytes.append(UInt8(w & 255))
                bytes.append(UInt8(w >> 8 & 255))
                bytes.append(UInt8(w >> 16 & 255))
                bytes.append(UInt8(w >> 24))
            }
        }
        let best = RowFilter.smallest(bytes, rowBytes: rect.width * 4, bytesPerPixel: 4, strategies: strategies, trial: trial)
        finals.submit(best.raw, ranked: best.data)
        frames.append(EncodedFrame(rect: rect, blend: .source, dispose: .none, delay: delay))
        previous = words
    }

    /// Ends the file and returns its bytes.
    public func finish() throws(APNGError) -> [UInt8] {
        guard !frames.isEmpty else { throw APNGError("no frames") }
        let streams = finals.streams()
        stats.framesWritten = frames.count
        var out = PNGChunkWriter()
        out.header(width: width, height: height, bitDepth: 8, colorType: 6)
        out.animationControl(frames: frames.count, loops: options.loops)
        out.frames(frames, streams: streams, ticksPerSecond: options.ticksPerSecond)
        out.chunk("IEND", [])
        return out.bytes
    }
}
