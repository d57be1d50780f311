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
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            throw APNGError("size \(width)×\(height) is not a PNG size")
        }
        guard APNGEncoder.effortRange.contains(options.effort) else {
            throw APNGError("effort \(options.effort) is outside \(APNGEncoder.effortRange)")
        }
        guard options.loops >= 0, options.loops <= 0xFFFF_FFFF, options.ticksPerSecond > 0 else {
            throw APNGError("loops and ticks per second must be positive")
        }
        self.width = width
        self.height = height
        self.options = options
        let every: [RowFilter.Strategy] = [.uniform(.none), .uniform(.sub), .uniform(.up), .uniform(.paeth), .adaptive]
        switch options.effort {
        case 0:
            trial = Deflater(.libdeflate(level: 1))
            finals = FinalDeflate(nil)
            strategies = [.uniform(.sub)]
        case 1, 2:
            trial = Deflater(.libdeflate(level: 1))
            finals = FinalDeflate(.libdeflate(level: options.effort == 1 ? 6 : 7))
            strategies = every
        default:
            trial = Deflater(.libdeflate(level: 2))
            finals = FinalDeflate(.zopfli(iterations: 15))
            strategies = every
        }
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
        } else if let changed = TrueColorAPNGEncoder.differing(words, previous, width: width, height: height) {
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

    /// The smallest rectangle holding every pixel where `a` and `b` differ; nil when they are equal.
    static func differing(_ a: [UInt32], _ b: [UInt32], width: Int, height: Int) -> Rect? {
        var top = -1, bottom = -1, left = width, right = -1
        for y in 0..<height {
            let row = y * width
            var first = -1, last = -1
            for x in 0..<width where a[row + x] != b[row + x] {
                if first < 0 { first = x }
                last = x
            }
            guard first >= 0 else { continue }
            if top < 0 { top = y }
            bottom = y
            left = min(left, first)
            right = max(right, last)
        }
        guard top >= 0 else { return nil }
        return Rect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }

    /// Ends the file and returns its bytes.
    public func finish() throws(APNGError) -> [UInt8] {
        guard !frames.isEmpty else { throw APNGError("no frames") }
        let streams = finals.streams()
        stats.framesWritten = frames.count
        var out = PNGChunkWriter()
        out.header(width: width, height: height, bitDepth: 8, colorType: 6)
        out.chunk("acTL", UInt32(frames.count).bigEndianBytes + UInt32(options.loops).bigEndianBytes)
        var sequence: UInt32 = 0
        for (n, frame) in frames.enumerated() {
            let (num, den) = APNGEncoder.delayFraction(ticks: frame.delay, perSecond: options.ticksPerSecond)
            var control = sequence.bigEndianBytes
            control += UInt32(frame.rect.width).bigEndianBytes + UInt32(frame.rect.height).bigEndianBytes
            control += UInt32(frame.rect.x).bigEndianBytes + UInt32(frame.rect.y).bigEndianBytes
            control += UInt16(num).bigEndianBytes + UInt16(den).bigEndianBytes
            control += [frame.dispose.rawValue, frame.blend.rawValue]
            out.chunk("fcTL", control)
            sequence += 1
            if n == 0 {
                out.chunk("IDAT", streams[n])
            } else {
                out.chunk("fdAT", sequence.bigEndianBytes + streams[n])
                sequence += 1
            }
        }
        out.chunk("IEND", [])
        return out.bytes
    }
}
