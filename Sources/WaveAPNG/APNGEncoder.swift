import WavePlatform

/// A failure of the APNG encoder: a palette or frame it cannot accept.
public struct APNGError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { "APNG: \(message)" }
}

/// Animated PNG from palette frames: indexed colour at the fewest bits that hold the palette, every
/// entry's alpha in `tRNS`, each frame after the first cropped to what changed and written the way
/// that deflates smallest (see `FrameCandidates`), identical frames merged into one longer frame.
///
/// Frames arrive as palette indices with their delay in ticks of `Options.ticksPerSecond`; the file is
/// built in memory and returned by `finish()`. The same frames and options always give the same bytes.
public final class APNGEncoder {
    public struct Options: Equatable, Sendable {
        /// 0 (fastest) … 3 (Zopfli on every frame); see `APNGEncoder.effortRange`.
        public var effort: Int
        /// Plays of the loop; 0 loops forever.
        public var loops: Int
        /// The unit of `add`'s delays (delays are written as exact fractions of a second when they fit).
        public var ticksPerSecond: Int

        public init(effort: Int = APNGEncoder.defaultEffort, loops: Int = 0, ticksPerSecond: Int = 1000) {
            self.effort = effort
            self.loops = loops
            self.ticksPerSecond = ticksPerSecond
        }
    }

    /// What the encoder did, for notes and tests.
    public struct Stats: Equatable, Sendable {
        public var framesIn = 0
        public var framesWritten = 0
        public var framesMerged = 0
        /// Frames blended over the canvas with unchanged pixels as the transparent entry.
        public var framesKeyed = 0
        /// Frames after which their rectangle was cleared before the next one.
        public var framesCleared = 0
        /// Frames after which what was under them was restored before the next one.
        public var framesRestored = 0
        public var bitDepth = 8
        public var colors = 0
    }

    public static let effortRange = 0...3
    public static let defaultEffort = 2

    public let width: Int
    public let height: Int
    public let options: Options
    public private(set) var stats = Stats()

    /// The palette as written: RGBA quads, entries with alpha < 255 first.
    let palette: [UInt8]
    /// Written index of each input index.
    let remap: [UInt8]
    /// Colours of the palette given to `init`.
    let inputColors: Int
    /// A written entry that is fully transparent black: unchanged pixels of keyed frames, cleared pixels.
    let key: UInt8?
    /// Whether each written entry is opaque, and whether it is fully transparent.
    let opaque: [Bool]
    let clear: [Bool]
    let bitDepth: Int
    private let candidates: FrameCandidates
    private let finals: FinalDeflate
    private var frames: [EncodedFrame] = []
    private var previous: [UInt8] = []
    /// The canvas the last written frame was drawn over (what disposing it to "previous" restores).
    private var underLast: [UInt8] = []

    /// `palette` holds RGBA quads (at most 256 colours); `add`'s indices point into it.
    public init(width: Int, height: Int, palette input: [UInt8], options: Options = Options()) throws(APNGError) {
        try APNGEncoder.check(width: width, height: height)
        guard !input.isEmpty, input.count % 4 == 0, input.count / 4 <= 256 else {
            throw APNGError("a palette needs 1…256 RGBA colours, got \(input.count / 4)")
        }
        try APNGEncoder.check(options)
        self.width = width
        self.height = height
        self.options = options
        let layout = PaletteLayout(input)
        palette = layout.palette
        remap = layout.remap
        inputColors = input.count / 4
        key = layout.key
        opaque = stride(from: 3, to: layout.palette.count, by: 4).map { layout.palette[$0] == 255 }
        clear = stride(from: 3, to: layout.palette.count, by: 4).map { layout.palette[$0] == 0 }
        bitDepth = PaletteLayout.bitDepth(colors: layout.palette.count / 4)
        candidates = FrameCandidates(bitDepth: bitDepth, effort: options.effort)
        finals = FinalDeflate(candidates.finalEngine)
        stats.bitDepth = bitDepth
        stats.colors = layout.palette.count / 4
    }

    /// Adds the next frame: `width` × `height` palette indices, shown for `delay` ticks.
    public func add(_ indices: [UInt8], delay: Int) throws(APNGError) {
        guard indices.count == width * height else {
            throw APNGError("frame \(stats.framesIn) has \(indices.count) pixels, expected \(width * height)")
        }
        guard delay >= 0 else { throw APNGError("frame \(stats.framesIn) has a negative delay") }
        // Every index must name a colour of the palette given to `init`.
        guard let highest = indices.max(), Int(highest) < inputColors else {
            throw APNGError("frame \(stats.framesIn) uses index \(indices.max() ?? 0) beyond the \(inputColors)-colour palette")
        }
        var frame = [UInt8](repeating: 0, count: indices.count)
        frame.withUnsafeMutableBufferPointer { frame in
            remap.withUnsafeBufferPointer { remap in
                indices.withUnsafeBufferPointer { indices in
                    for i in 0..<indices.count { frame[i] = remap[Int(indices[i])] }
                }
            }
        }
        stats.framesIn += 1
        if frames.isEmpty {
            let full = Rect(x: 0, y: 0, width: width, height: height)
            let image = candidates.best(of: [.init(rect: full, pixels: frame, blend: .source)])
            finals.submit(image.raw, ranked: image.data)
            frames.append(EncodedFrame(rect: full, blend: .source, dispose: .none, delay: delay))
        } else if frame == previous {
            frames[frames.count - 1].delay += delay
            stats.framesMerged += 1
        } else {
            encode(frame, delay: delay)
        }
        previous = frame
    }

    /// Chooses how to write `frame` over the previous one: the previous frame's disposal (keep it,
    /// clear its rectangle, or restore what was under it), then the rectangle that differs, then the
    /// blend.
    private func encode(_ frame: [UInt8], delay: Int) {
        let last = frames[frames.count - 1]
        var options: [FrameCandidates.Image] = []
        var disposals: [Dispose] = []
        var canvases: [Dispose: [UInt8]] = [:]
        for dispose in [Dispose.none, .background, .previous] {
            var canvas = previous
            switch dispose {
            case .none:
                break
            case .background:
                // Clearing the previous rectangle needs a transparent entry to stand for cleared pixels.
                guard let key, candidates.effort > 0 else { continue }
                for y in last.rect.y..<(last.rect.y + last.rect.height) {
                    let row = y * width
                    for x in last.rect.x..<(last.rect.x + last.rect.width) { canvas[row + x] = key }
                }
            case .previous:
                // Not after the first frame, which players treat differently. Not after a frame
                // blended over the canvas: Pillow 13 then restores that frame itself (as if it were
                // not disposed), which the spec does not allow but costs little to avoid (see
                // "APNG encoding" in docs/architecture.md). Not when the frame before the last was
                // itself disposed (cleared or restored): Pillow (9.4 and 13) restores the canvas as
                // it was before that disposal, not after it as the spec says.
                guard frames.count >= 2, last.blend != .over, candidates.effort > 0,
                      frames.count < 3 || frames[frames.count - 2].dispose == .none else { continue }
                canvas = underLast
            }
            canvases[dispose] = canvas
            guard let rect = Rect.differing(frame, canvas, width: width, height: height) else { continue }
            // Source: the rectangle as it is.
            options.append(.init(rect: rect, pixels: rect.crop(frame, width: width), blend: .source))
            disposals.append(dispose)
            // Over: unchanged pixels become the transparent entry, when blending keeps every pixel
            // exact. Not over a cleared rectangle: Pillow (9.4) blends such a frame over the
            // uncleared pixels.
            if dispose != .background, let key, let keyed = keyedPixels(frame, over: canvas, in: rect, key: key) {
                options.append(.init(rect: rect, pixels: keyed, blend: .over))
                disposals.append(dispose)
            }
        }
        let best = candidates.best(of: options)
        let dispose = disposals[best.choice]
        frames[frames.count - 1].dispose = dispose
        underLast = canvases[dispose]!
        finals.submit(best.raw, ranked: best.data)
        frames.append(EncodedFrame(rect: best.rect, blend: best.blend, dispose: .none, delay: delay))
    }

    /// The rectangle of `frame` with every pixel equal to `canvas` replaced by `key`; nil when a
    /// changed pixel would not come out exact when blended over the canvas: a translucent pixel is
    /// only exact over a fully transparent one, and nothing turns a pixel transparent.
    private func keyedPixels(_ frame: [UInt8], over canvas: [UInt8], in rect: Rect, key: UInt8) -> [UInt8]? {
        var keyed = [UInt8](repeating: key, count: rect.width * rect.height)
        let exact = keyed.withUnsafeMutableBufferPointer { out in
            frame.withUnsafeBufferPointer { frame in
                canvas.withUnsafeBufferPointer { canvas in
                    opaque.withUnsafeBufferPointer { opaque in
                        clear.withUnsafeBufferPointer { clear in
                            var i = 0
                            for y in rect.y..<(rect.y + rect.height) {
                                let row = y * width
                                for x in rect.x..<(rect.x + rect.width) {
                                    let p = frame[row + x], c = canvas[row + x]
                                    if p != c {
                                        guard opaque[Int(p)] || (clear[Int(c)] && !clear[Int(p)]) else { return false }
                                        out[i] = p
                                    }
                                    i += 1
                                }
                            }
                            return true
                        }
                    }
                }
            }
        }
        return exact ? keyed : nil
    }

    /// Ends the file and returns its bytes.
    public func finish() throws(APNGError) -> [UInt8] {
        guard !frames.isEmpty else { throw APNGError("no frames") }
        let streams = finals.streams()
        stats.framesWritten = frames.count
        stats.framesKeyed = frames.filter { $0.blend == .over }.count
        stats.framesCleared = frames.filter { $0.dispose == .background }.count
        stats.framesRestored = frames.filter { $0.dispose == .previous }.count
        var out = PNGChunkWriter()
        out.header(width: width, height: height, bitDepth: bitDepth)
        out.animationControl(frames: frames.count, loops: options.loops)
        out.chunk("PLTE", (0..<(palette.count / 4)).flatMap { palette[$0 * 4..<$0 * 4 + 3] })
        let alphas = (0..<(palette.count / 4)).map { palette[$0 * 4 + 3] }
        if let lastTranslucent = alphas.lastIndex(where: { $0 != 255 }) {
            out.chunk("tRNS", Array(alphas[...lastTranslucent]))
        }
        out.frames(frames, streams: streams, ticksPerSecond: options.ticksPerSecond)
        out.chunk("IEND", [])
        return out.bytes
    }

    /// `ticks / perSecond` seconds as a `fcTL` numerator and denominator (both at most 65535),
    /// exact when the reduced fraction fits.
    static func delayFraction(ticks: Int, perSecond: Int) -> (Int, Int) {
        guard ticks > 0 else { return (0, 1) }
        let g = gcd(ticks, perSecond)
        var num = ticks / g, den = perSecond / g
        if num <= 0xFFFF && den <= 0xFFFF { return (num, den) }
        // Too long or too fine for 16 bits: the nearest fraction in milliseconds, or in seconds.
        let seconds = Double(ticks) / Double(perSecond)
        if seconds * 1000 <= 0xFFFF {
            num = Int((seconds * 1000).rounded()); den = 1000
        } else {
            num = min(0xFFFF, Int(seconds.rounded())); den = 1
        }
        return (num, den)
    }

    static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    /// Refuses a size no PNG can have.
    static func check(width: Int, height: Int) throws(APNGError) {
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            throw APNGError("size \(width)×\(height) is not a PNG size")
        }
    }

    /// Refuses an effort outside `effortRange` and loop counts or tick rates a file cannot hold.
    static func check(_ options: Options) throws(APNGError) {
        guard effortRange.contains(options.effort) else {
            throw APNGError("effort \(options.effort) is outside \(effortRange)")
        }
        guard options.loops >= 0, options.loops <= 0xFFFF_FFFF, options.ticksPerSecond > 0 else {
            throw APNGError("loops and ticks per second must be positive")
        }
    }
}

enum Dispose: UInt8 {
    case none = 0
    case background = 1
    case previous = 2
}

enum Blend: UInt8 {
    case source = 0
    case over = 1
}

struct EncodedFrame {
    var rect: Rect
    var blend: Blend
    var dispose: Dispose
    var delay: Int
}

struct Rect: Equatable {
    var x: Int, y: Int, width: Int, height: Int

    /// The smallest rectangle holding every pixel where `a` and `b` differ; nil when they are equal.
    static func differing<Pixel: FixedWidthInteger>(_ a: [Pixel], _ b: [Pixel], width: Int, height: Int) -> Rect? {
        var top = -1, bottom = -1, left = width, right = -1
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for y in 0..<height {
                    let pa = a.baseAddress! + y * width, pb = b.baseAddress! + y * width
                    // Most rows of a wave frame are unchanged: skip them whole.
                    guard !CMemory.equal(pa, pb, count: width * MemoryLayout<Pixel>.stride) else { continue }
                    var first = 0
                    while pa[first] == pb[first] { first += 1 }
                    var last = width - 1
                    while pa[last] == pb[last] { last -= 1 }
                    if top < 0 { top = y }
                    bottom = y
                    left = min(left, first)
                    right = max(right, last)
                }
            }
        }
        guard top >= 0 else { return nil }
        return Rect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }

    func crop(_ pixels: [UInt8], width stride: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(width * height)
        for row in y..<(y + height) {
            out.append(contentsOf: pixels[(row * stride + x)..<(row * stride + x + width)])
        }
        return out
    }
}

/// The written palette: duplicates merged, translucent entries first (so `tRNS` stays short), a
/// fully transparent black entry to key unchanged pixels when one exists or fits without a wider
/// bit depth.
struct PaletteLayout {
    var palette: [UInt8] = []
    var remap = [UInt8](repeating: 255, count: 256)
    var key: UInt8?

    init(_ input: [UInt8]) {
        let count = input.count / 4
        var order = Array(0..<count)
        let alpha = { (i: Int) in input[i * 4 + 3] }
        // Fully transparent first, then translucent, then opaque; stable within each group.
        order.sort { (rank(alpha($0)), $0) < (rank(alpha($1)), $1) }
        var written: [[UInt8]: UInt8] = [:]
        let hasClear = (0..<count).contains { alpha($0) == 0 }
        if !hasClear, count < 256, PaletteLayout.bitDepth(colors: count + 1) == PaletteLayout.bitDepth(colors: count) {
            palette += [0, 0, 0, 0]
            written[[0, 0, 0, 0]] = 0
        }
        for i in order {
            var color = Array(input[i * 4..<i * 4 + 4])
            if color[3] == 0 { color = [0, 0, 0, 0] }
            if let j = written[color] {
                remap[i] = j
            } else {
                let j = UInt8(palette.count / 4)
                written[color] = j
                palette += color
                remap[i] = j
            }
        }
        key = written[[0, 0, 0, 0]]
    }

    private func rank(_ a: UInt8) -> Int { a == 0 ? 0 : a < 255 ? 1 : 2 }

    /// The fewest bits per pixel that index `colors` entries.
    static func bitDepth(colors: Int) -> Int {
        colors <= 2 ? 1 : colors <= 4 ? 2 : colors <= 16 ? 4 : 8
    }
}

/// PNG's chunk framing: signature, length, type, data, CRC.
struct PNGChunkWriter {
    private(set) var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// `IHDR`: colour type 3 (indexed) by default, 6 for RGBA.
    mutating func header(width: Int, height: Int, bitDepth: Int, colorType: UInt8 = 3) {
        chunk("IHDR", UInt32(width).bigEndianBytes + UInt32(height).bigEndianBytes + [UInt8(bitDepth), colorType, 0, 0, 0])
    }

    /// `acTL`: how many frames the animation has and how many times it plays (0: forever).
    mutating func animationControl(frames: Int, loops: Int) {
        chunk("acTL", UInt32(frames).bigEndianBytes + UInt32(loops).bigEndianBytes)
    }

    /// Each frame's `fcTL` and its image data: the first frame's in `IDAT`, the others' in `fdAT`,
    /// numbered in one sequence. Delays are in ticks of `ticksPerSecond`.
    mutating func frames(_ frames: [EncodedFrame], streams: [[UInt8]], ticksPerSecond: Int) {
        var sequence: UInt32 = 0
        for (n, frame) in frames.enumerated() {
            let (num, den) = APNGEncoder.delayFraction(ticks: frame.delay, perSecond: ticksPerSecond)
            var control = sequence.bigEndianBytes
            control += UInt32(frame.rect.width).bigEndianBytes + UInt32(frame.rect.height).bigEndianBytes
            control += UInt32(frame.rect.x).bigEndianBytes + UInt32(frame.rect.y).bigEndianBytes
            control += UInt16(num).bigEndianBytes + UInt16(den).bigEndianBytes
            // The last frame's disposal never shows: players clear the canvas when the loop restarts.
            control += [n == frames.count - 1 ? Dispose.none.rawValue : frame.dispose.rawValue, frame.blend.rawValue]
            chunk("fcTL", control)
            sequence += 1
            if n == 0 {
                chunk("IDAT", streams[n])
            } else {
                chunk("fdAT", sequence.bigEndianBytes + streams[n])
                sequence += 1
            }
        }
    }

    mutating func chunk(_ type: String, _ data: [UInt8]) {
        bytes += UInt32(data.count).bigEndianBytes
        let start = bytes.count
        bytes += Array(type.utf8)
        bytes += data
        bytes += Deflater.crc32(bytes[start...]).bigEndianBytes
    }
}

extension FixedWidthInteger {
    var bigEndianBytes: [UInt8] {
        (0..<(Self.bitWidth / 8)).reversed().map { UInt8(truncatingIfNeeded: self >> ($0 * 8)) }
    }
}
