internal import CGIF
import WavePlatform

/// Writes an animated GIF89a from frames of palette indices, keeping it small: frames after the first
/// are cropped to what changed, unchanged pixels become a transparent key where that codes shorter,
/// identical frames merge, the palette uses no more bits than it needs, and (by default) the color
/// table lists first the colors most frames use, so each frame codes in as few bits as it can.
///
/// Frames are buffered one deep (to merge duplicates and choose each frame's disposal), plus, for
/// ordering the table, the animation's first few frames; memory stays bounded whatever the
/// animation's length.
public final class GIFEncoder {
    public let width: Int
    public let height: Int
    /// The index meaning "transparent" in the scene, if any.
    public let transparentIndex: Int?
    /// Statistics for the verbose report.
    public internal(set) var stats = Stats()

    /// Counts of what the optimiser did.
    public struct Stats: Equatable, Sendable {
        public var framesIn = 0
        public var framesWritten = 0
        public var framesMerged = 0
        public var framesWithKey = 0
        public var framesCleared = 0
        /// Pixels shown with a color other than their exact one (lossy coding), over all frames.
        public var pixelsApproximated = 0
        /// Of those, edge pixels blended against the matte that show the matte (left transparent).
        public var pixelsShowingMatte = 0
    }

    /// How the color table is ordered. Frames always use palette indices; the order only decides
    /// each color's position in the file's table, so it changes the size, never the pixels.
    public enum ColorOrder: Sendable, Equatable {
        /// The palette's own order.
        case asGiven
        /// The colors most frames use first (`GIFColorUsage`), counted on the animation's first
        /// frames: as many as fit in `sampleBytes` (at least 9), so the whole loop when it is small.
        /// Those frames are held back until then, since the table is written before any frame.
        case byUse(sampleBytes: Int)
        /// Every palette index once, in table order.
        case explicit([Int])

        /// By use, counted on up to 4 MiB of frames.
        public static let byUse = ColorOrder.byUse(sampleBytes: 4 << 20)
    }

    let colors: [RGBA8]
    /// The largest error a pixel may show (0: exact); see `init`.
    public let lossy: Int
    /// The largest `lossy` bound.
    public static let maximumLossy = 128
    private let loops: Int
    private let colorOrder: ColorOrder
    /// The color partly covered pixels over transparency are blended against, if frames mark them.
    public let matte: RGBA8?
    /// Frames held back until the table's order is known (`.byUse`), with their delays and matte planes.
    private var held: [Frame] = []
    private let heldLimit: Int
    /// Created once the table's order is known.
    private var writer: GIFStream?
    /// Table position of each palette index (256 entries; the identity when not reordered).
    var position = (0..<256).map(UInt8.init)
    /// Palette index at each table position (the inverse of `position`).
    var order: [Int] = []
    /// The transparent index's table position.
    var tableTransparent: Int?
    /// Entries in the color table (a power of two, at least the palette's size).
    let tableSize: Int
    /// Palette indices as shown after the last frame written (and its disposal).
    var canvas: [UInt8]
    /// For lossy coding: `errors[index << 8 | value]`, the error of showing table value `value`
    /// where palette index `index` belongs (255 for table entries past the palette).
    var errors: [UInt8] = []
    let lzw = BoundedLZW()
    /// The lossy coder's second, for the flexible pass coded beside the greedy ones (`lossyRendition`).
    let spareLZW = BoundedLZW()
    /// Which of a lossy frame's pairs (`boundedPlan`) won the frame before: the guess whose
    /// flexible pass is coded beside the next frame's greedy passes.
    var lastWinner = 0
    /// Lossy frames whose guessed flexible pass was taken, and those whose guess lost (the
    /// flexible pass then coded after the greedy ones).
    var guesses = (taken: 0, missed: 0)
    private var first: [UInt8]?
    private var pending: Frame?
    /// For lossy coding with a matte: `matteError[index]`, the error of showing the matte where
    /// palette index `index` belongs (largest channel difference; 255 for the transparent index).
    var matteError: [UInt8] = []

    /// A frame waiting to be written: palette indices, delay, and its matte plane (or nil).
    private struct Frame {
        var pixels: [UInt8]
        var delay: Int
        var matte: [UInt8]?
    }
    private var finished = false
    /// Codes each rendition of a frame as giflib would, keeping the shortest's bytes.
    private var coder = LZWCoder()
    /// Counts renditions on the plain path (`codesItself` false).
    private var sizer = LZWSizer()
    /// Whether exact frames are coded by `coder` (else by giflib's `EGifPutLine`, the plain path
    /// the tests hold it to; both write the same bytes).
    let codesItself: Bool
    /// Whether lossy frames are chosen in the slow reference order (`lossyRenditionExactFirst`);
    /// both write the same bytes.
    var codesExactFirst = false
    /// A draft codes one exact rendition of each frame (unchanged pixels as the key, where a
    /// key is free), not the shortest of three: the same pixels, in a somewhat larger file, in
    /// about a third of the coding. For the live preview's first look at a slow loop.
    public var draft = false
    /// Whether frames held back to order the table are coded on the cores (`writeOnTheCores`);
    /// else on the caller's thread, for a caller that already runs its encoders side by side at
    /// priorities of its own (the live preview). The same bytes either way.
    public var onTheCores = true

    /// Starts a GIF of `width` × `height` with `colors` (1…256 entries). `loops` is how many times the
    /// animation plays (0 = forever); GIF stores repeats, so 1 writes no loop block.
    ///
    /// `lossy` (0…128) lets the LZW coder write, where that codes shorter, a color other than a
    /// pixel's own: no pixel's shown color (premultiplied RGBA, the key's "keep what is there"
    /// applied) then differs from its exact color by more than `lossy` levels in any channel, and
    /// flat pixels (whose 4 neighbours in the frame have the same index) stay exact. 0 writes
    /// every pixel exactly, through giflib's own coder.
    ///
    /// `matte` (opaque; needs `transparentIndex`) is the page color the frames' partly covered
    /// pixels over transparency were blended against. A frame's matte plane (`add(_:delay:matte:)`)
    /// marks those pixels, and the lossy coder judges them on that page: a marked pixel may be left
    /// transparent (the matte showing through) where its color is within `lossy` of the matte. An
    /// unmarked pixel is never shown transparent unless it is.
    public init(width: Int, height: Int, colors: [RGBA8], transparentIndex: Int?, loops: Int,
                colorOrder: ColorOrder = .byUse, lossy: Int = 0, matte: RGBA8? = nil, codesItself: Bool = true) throws(GIFError) {
        guard (1...65535).contains(width), (1...65535).contains(height) else {
            throw GIFError(operation: "starting", message: "canvas \(width)×\(height) is outside 1…65535")
        }
        guard (1...256).contains(colors.count) else {
            throw GIFError(operation: "starting", message: "palette of \(colors.count) entries; a GIF holds 1…256")
        }
        if let t = transparentIndex, !colors.indices.contains(t) {
            throw GIFError(operation: "starting", message: "transparent index \(t) is outside the palette of \(colors.count)")
        }
        if case let .explicit(order) = colorOrder, order.count != colors.count || Set(order) != Set(colors.indices) {
            throw GIFError(operation: "starting", message: "color order is not a permutation of the \(colors.count) palette entries")
        }
        guard (0...GIFEncoder.maximumLossy).contains(lossy) else {
            throw GIFError(operation: "starting", message: "lossy bound \(lossy) is outside 0…\(GIFEncoder.maximumLossy)")
        }
        if let matte {
            guard matte.a == 255 else { throw GIFError(operation: "starting", message: "matte \(matte) is not opaque") }
            guard transparentIndex != nil else {
                throw GIFError(operation: "starting", message: "a matte needs a transparent index to show it through")
            }
        }
        self.matte = matte
        self.codesItself = codesItself
        self.width = width
        self.height = height
        self.colors = colors
        self.lossy = lossy
        self.transparentIndex = transparentIndex
        self.loops = loops
        self.colorOrder = colorOrder
        if case let .byUse(bytes) = colorOrder {
            heldLimit = max(9, bytes / (width * height))
        } else {
            heldLimit = 0
        }
        tableSize = 1 << GIFStream.tableBits(entries: colors.count)
        canvas = [UInt8](repeating: UInt8(transparentIndex ?? 0), count: width * height)
        if heldLimit == 0 { try begin() }
    }

    /// Adds a frame shown for `delay` centiseconds. `matte`, with the encoder's `matte`, marks
    /// (non-zero) the pixels whose color is blended against it; see `init`.
    public func add(_ pixels: [UInt8], delay: Int, matte marks: [UInt8]? = nil) throws(GIFError) {
        guard pixels.count == width * height else {
            throw GIFError(operation: "adding a frame", message: "frame has \(pixels.count) pixels, expected \(width * height)")
        }
        if let marks {
            guard matte != nil else { throw GIFError(operation: "adding a frame", message: "matte plane without a matte color") }
            guard marks.count == pixels.count else {
                throw GIFError(operation: "adding a frame", message: "matte plane has \(marks.count) pixels, expected \(pixels.count)")
            }
        }
        stats.framesIn += 1
        let frame = Frame(pixels: pixels, delay: delay, matte: marks)
        guard writer != nil else {
            held.append(frame)
            if held.count >= heldLimit { try begin() }
            return
        }
        try enqueue(frame)
    }

    /// Writes the last frame and the trailer; returns the file's bytes.
    public func finish() throws(GIFError) -> [UInt8] {
        guard !finished else { throw GIFError(operation: "finishing", message: "already finished") }
        finished = true
        if writer == nil { try begin() }
        if let p = pending { try write(p, next: first) }
        guard let writer else { throw GIFError(operation: "finishing", message: "no header written") }
        return try writer.close()
    }

    /// Settles the table's order, writes the header, and sends the held frames on.
    private func begin() throws(GIFError) {
        var order = Array(colors.indices)
        // The held frames' pairs, when the table's order counted them on the cores.
        var counted: [HeldPair]?
        switch colorOrder {
        case .asGiven:
            break
        case let .explicit(given):
            order = given
        case .byUse:
            var usage = GIFColorUsage(entries: colors.count, alwaysUsed: transparentIndex)
            if codesOnTheCores(held.count) {
                // The pairs counted on the cores with each frame's rectangles against its
                // neighbours, which the frames' coding then takes instead of finding them again.
                let pairs = pairsOnTheCores(held.map(\.pixels))
                usage.add(pairs: pairs.map(\.pair))
                counted = pairs
            } else {
                usage.add(frames: held.map(\.pixels), width: width, height: height)
            }
            order = usage.order
        }
        for (slot, index) in order.enumerated() { position[index] = UInt8(slot) }
        self.order = order
        tableTransparent = transparentIndex.map { Int(position[$0]) }
        if lossy > 0 { errors = GIFEncoder.errorTable(colors, order: order, transparentIndex: transparentIndex) }
        if lossy > 0, let matte { matteError = GIFEncoder.matteErrors(colors, matte: matte, transparentIndex: transparentIndex) }
        let stream = try GIFStream(width: width, height: height, colors: order.map { colors[$0] })
        if loops != 1 { try stream.putLoopBlock(repeats: loops == 0 ? 0 : loops - 1) }
        writer = stream
        let frames = held
        held = []
        if codesOnTheCores(frames.count) {
            try writeOnTheCores(frames, counted: counted)
        } else {
            for f in frames { try enqueue(f) }
        }
    }

    /// Whether `count` held frames are coded on the cores (`writeOnTheCores`).
    private func codesOnTheCores(_ count: Int) -> Bool {
        lossy == 0 && codesItself && onTheCores && count > 2 && ProcessEnvironment.activeProcessorCount > 1
    }

    /// One pair of consecutive held frames, k and k + 1: the colors k + 1 uses where it differs
    /// from k (`pair.rect` is that difference, what frame k + 1 changed), and what frame k must
    /// clear for k + 1 (pixels k + 1 shows transparent that k covers; empty without a transparent index).
    struct HeldPair: Sendable {
        var pair: GIFColorUsage.Pair
        var clear: PixelRect
    }

    /// Every consecutive pair of `frames`, on the cores.
    private func pairsOnTheCores(_ frames: [[UInt8]]) -> [HeldPair] {
        let width = width, height = height, transparent = transparentIndex.map(UInt8.init)
        return Concurrently.map(frames.count - 1) { k in
            let pair = GIFColorUsage.count(previous: frames[k], frame: frames[k + 1], width: width, height: height)
            guard let t = transparent else { return HeldPair(pair: pair, clear: .empty) }
            let clear = frames[k].withUnsafeBufferPointer { f in
                frames[k + 1].withUnsafeBufferPointer { n in PixelRect.uncovered(f, n, key: t, width: width) }
            }
            return HeldPair(pair: pair, clear: clear)
        }
    }

    /// `enqueue` for every held frame, with their exact renditions coded on the cores: the merges,
    /// each frame's rectangles and the canvas it is coded over are settled in order first (cheap
    /// passes), then every frame's renditions are coded at once, then written in order. The same
    /// bytes as one frame at a time (`GIFCoderTests`); the last frame stays pending, as there.
    /// `counted`, when given, are the frames' pairs as the table's order counted them.
    private func writeOnTheCores(_ frames: [Frame], counted: [HeldPair]?) throws(GIFError) {
        var queue: [Frame] = []
        for f in frames {
            if first == nil { first = f.pixels }
            if let last = queue.last, GIFEncoder.same(last.pixels, f.pixels) {
                queue[queue.count - 1] = GIFEncoder.merged(last, f)
                stats.framesMerged += 1
            } else {
                queue.append(f)
            }
        }
        let count = queue.count - 1
        // Reads only what no task changes (the table's order, the key, the frames).
        nonisolated(unsafe) let encoder = self
        let ordered = queue, isFirst = stats.framesWritten == 0
        // Each frame's rectangles against the frame before, on the cores. What the next frame needs
        // cleared does not depend on the canvas, and what changed is this unless the frame before
        // was cleared (then found again below, in order, over that canvas). When no frame merged,
        // the pairs the table's order counted hold them.
        let against: [(changed: PixelRect, clear: PixelRect)?]
        if let pairs = counted, pairs.count == count {
            against = (0..<count).map { j in j == 0 ? nil : (pairs[j - 1].pair.rect, pairs[j].clear) }
        } else {
            against = Concurrently.map(count) { j in
                j == 0 ? nil : encoder.rects(ordered[j].pixels, over: ordered[j - 1].pixels, next: ordered[j + 1].pixels, isFirst: false)
            }
        }
        // Each frame is coded over the frame before (the canvas as it is, for the first), with the
        // rectangle that frame was cleared in, if it was: each task makes that canvas itself.
        var plans: [(cleared: PixelRect?, changed: PixelRect, clear: PixelRect, isFirst: Bool)] = []
        plans.reserveCapacity(count)
        let start = canvas, transparent = transparentIndex.map(UInt8.init) ?? 0
        var scratch = start, cleared: PixelRect?
        for j in 0..<count {
            let first = isFirst && j == 0
            let changed: PixelRect, clear: PixelRect
            if j > 0, let other = against[j] {
                clear = other.clear
                if let r = cleared {
                    GIFEncoder.copy(ordered[j - 1].pixels, clearing: r, to: transparent, into: &scratch, width: width)
                    changed = scratch.withUnsafeBufferPointer { c in
                        ordered[j].pixels.withUnsafeBufferPointer { f in PixelRect.differing(f, c, width: width) }
                    }
                } else {
                    changed = other.changed
                }
            } else {
                (changed, clear) = rects(ordered[j].pixels, over: start, next: ordered[j + 1].pixels, isFirst: first)
            }
            plans.append((j == 0 ? nil : cleared, changed, clear, first))
            cleared = !clear.isEmpty && transparentIndex != nil ? GIFEncoder.frameRect(changed: changed, clear: clear) : nil
        }
        let settled = plans, side = width
        let coded = Concurrently.map(count, state: { (LZWCoder(), LZWSizer(), [UInt8]()) }) { tools, j in
            let plan = settled[j]
            let base = j == 0 ? start : ordered[j - 1].pixels
            if let r = plan.cleared { GIFEncoder.copy(base, clearing: r, to: transparent, into: &tools.2, width: side) }
            return encoder.exactRendition(ordered[j].pixels, over: plan.cleared == nil ? base : tools.2, changed: plan.changed,
                                          clear: plan.clear, isFirst: plan.isFirst, coder: &tools.0, sizer: &tools.1)
        }
        for j in 0..<count {
            guard let exact = coded[j] else { preconditionFailure("an unlimited exact rendition always codes") }
            // Only the last frame's canvas is coded over later (by the pending frame).
            try put(exact, frame: queue[j].pixels, delay: queue[j].delay, clear: plans[j].clear, shows: j == count - 1)
        }
        pending = queue[count]
    }

    /// Whether two frames hold the same pixels: `==`, by `memcmp` rather than a byte at a time.
    static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in a.isEmpty || CMemory.equal(pa.baseAddress!, pb.baseAddress!, count: a.count) }
        }
    }

    /// `frame` with `rect` set to `value`, written into `buffer` (made `frame`'s size when it is not).
    private static func copy(_ frame: [UInt8], clearing rect: PixelRect, to value: UInt8, into buffer: inout [UInt8], width: Int) {
        if buffer.count != frame.count { buffer = [UInt8](repeating: 0, count: frame.count) }
        buffer.withUnsafeMutableBufferPointer { b in
            frame.withUnsafeBufferPointer { f in _ = b.update(fromContentsOf: f) }
            fill(rect, with: value, in: b, width: width)
        }
    }

    /// Two equal frames as one: the delays added, a pixel marked in the matte plane only if both mark it.
    private static func merged(_ p: Frame, _ f: Frame) -> Frame {
        var m = p
        m.delay += f.delay
        if let a = p.matte, let b = f.matte {
            m.matte = zip(a, b).map { $0 != 0 && $1 != 0 ? 1 : 0 }
        } else {
            m.matte = nil
        }
        return m
    }

    /// Merges a frame into the one before if they are the same (a pixel stays marked in the matte
    /// plane only if both mark it), else writes the one before.
    private func enqueue(_ frame: Frame) throws(GIFError) {
        if first == nil { first = frame.pixels }
        if let p = pending {
            if GIFEncoder.same(p.pixels, frame.pixels) {
                pending = GIFEncoder.merged(p, frame)
                stats.framesMerged += 1
                return
            }
            try write(p, next: frame.pixels)
        }
        pending = frame
    }

    private func write(_ queued: Frame, next: [UInt8]?) throws(GIFError) {
        let frame = queued.pixels, delay = queued.delay
        guard let writer else { throw GIFError(operation: "writing a frame", message: "no header written") }
        let isFirst = stats.framesWritten == 0
        let (changed, clear) = rects(frame, over: canvas, next: next, isFirst: isFirst)
        let exact: ExactRendition
        if lossy > 0 {
            let marks = matteError.isEmpty ? nil : queued.matte
            let rendition = codesExactFirst
                ? lossyRenditionExactFirst(frame, matte: marks, changed: changed, clear: clear, isFirst: isFirst)
                : lossyRendition(frame, matte: marks, changed: changed, clear: clear, isFirst: isFirst)
            switch rendition {
            case let .exact(e):
                exact = e
            case let .bounded(bounded):
                try writer.putFrame(blocks: bounded.blocks, rect: bounded.rect, codeSize: bounded.codeSize, delay: delay,
                                    disposal: GIFEncoder.disposal(!clear.isEmpty), transparentIndex: bounded.key ?? tableTransparent)
                stats.framesWritten += 1
                if bounded.keyUsed { stats.framesWithKey += 1 }
                show(bounded, frame: frame, changed: changed)
                if !clear.isEmpty { clearCanvas(bounded.rect) }
                return
            }
        } else {
            guard let e = exactRendition(frame, changed: changed, clear: clear, isFirst: isFirst) else {
                preconditionFailure("an unlimited exact rendition always codes")
            }
            exact = e
        }
        try put(exact, frame: frame, delay: delay, clear: clear)
    }

    /// Frame `frame`'s rectangles against `canvas`, in one pass: what changed, and what the next
    /// frame needs cleared (pixels it shows transparent that this one covers; only disposal can
    /// clear them).
    private func rects(_ frame: [UInt8], over canvas: [UInt8], next: [UInt8]?, isFirst: Bool) -> (changed: PixelRect, clear: PixelRect) {
        // Frames and the canvas hold palette indices; what is written holds table positions.
        let transparent = transparentIndex.map(UInt8.init)
        var changed = PixelRect.empty, clear = PixelRect.empty
        let whole = PixelRect(x: 0, y: 0, width: width, height: height)
        frame.withUnsafeBufferPointer { f in
            canvas.withUnsafeBufferPointer { c in
                changed = isFirst ? whole : PixelRect.differing(f, c, width: width)
                if let t = transparent, let next {
                    next.withUnsafeBufferPointer { n in clear = PixelRect.uncovered(f, n, key: t, width: width) }
                }
            }
        }
        return (changed, clear)
    }

    /// Writes an exact rendition of `frame` and, with `shows`, shows it on the canvas (cleared
    /// where the next frame needs it; counted as cleared either way).
    private func put(_ exact: ExactRendition, frame: [UInt8], delay: Int, clear: PixelRect, shows: Bool = true) throws(GIFError) {
        guard let writer else { throw GIFError(operation: "writing a frame", message: "no header written") }
        let transparentIndex = exact.useKey ? exact.key.map(Int.init) : tableTransparent
        if let blocks = exact.blocks {
            try writer.putFrame(blocks: blocks, rect: exact.rect, codeSize: exact.codeSize, delay: delay,
                                disposal: GIFEncoder.disposal(!clear.isEmpty), transparentIndex: transparentIndex)
        } else {
            try writer.putFrame(exact.pixels, rect: exact.rect, codeSize: exact.codeSize, delay: delay,
                                disposal: GIFEncoder.disposal(!clear.isEmpty), transparentIndex: transparentIndex)
        }
        stats.framesWritten += 1
        if exact.useKey { stats.framesWithKey += 1 }
        guard shows else {
            if !clear.isEmpty && self.transparentIndex != nil { stats.framesCleared += 1 }
            return
        }
        canvas = frame
        if !clear.isEmpty { clearCanvas(exact.rect) }
    }

    /// A frame's rectangle as giflib codes it exactly: its pixels (table positions), code size,
    /// whether the key is used, the bits its codes take, and (with `codesItself`) its LZW data
    /// sub-blocks as giflib writes them.
    struct ExactRendition {
        var pixels: [UInt8]
        var rect: PixelRect
        var codeSize: Int
        var key: UInt8?
        var useKey: Bool
        var bits: Int
        var blocks: [UInt8]?

        /// The bytes of its LZW data sub-blocks (length bytes included).
        var dataBytes: Int { ExactRendition.dataBytes(bits: bits) }

        /// The bytes of the LZW data sub-blocks of codes taking `bits` bits (length bytes included).
        static func dataBytes(bits: Int) -> Int {
            let bytes = (bits + 7) / 8
            return bytes + (bytes + 254) / 255
        }

        /// The most bits whose sub-blocks take at most `dataBytes` bytes (`dataBytes` ≥ 0): n bytes
        /// of codes take n + ⌈n ÷ 255⌉, so the most is n = `dataBytes` − ⌈`dataBytes` ÷ 256⌉.
        static func largestBits(within dataBytes: Int) -> Int {
            8 * (dataBytes - (dataBytes + 255) / 256)
        }
    }

    /// The exact rendition of a frame: its rectangle (what changed, and what the next frame needs
    /// cleared) and, of three renditions, the one LZW codes shortest (of equally short ones, the
    /// first); nil if that one's codes take more than `limit` bits.
    func exactRendition(_ frame: [UInt8], changed: PixelRect, clear: PixelRect, isFirst: Bool,
                        within limit: Int = .max) -> ExactRendition? {
        exactRendition(frame, over: canvas, changed: changed, clear: clear, isFirst: isFirst, within: limit,
                       coder: &coder, sizer: &sizer)
    }

    /// `exactRendition(_:changed:clear:isFirst:within:)` over a given canvas (what the frames before
    /// left), with a given coder: what the held frames' renditions are made of on several threads.
    func exactRendition(_ frame: [UInt8], over canvas: [UInt8], changed: PixelRect, clear: PixelRect, isFirst: Bool,
                        within limit: Int = .max, coder: inout LZWCoder, sizer: inout LZWSizer) -> ExactRendition? {
        let rect = GIFEncoder.frameRect(changed: changed, clear: clear)

        // The "keep what is there" key: the scene's transparent index, or else any table entry this
        // frame does not use inside its rectangle (as gifsicle picks one), so no entry is spent on it.
        let key: UInt8? = tableTransparent.map(UInt8.init) ?? (isFirst ? nil : unusedEntry(frame, in: rect))
        // Three renditions of the rectangle: every pixel as it is; every unchanged pixel as the key;
        // and unchanged pixels as whichever of the two continues the run before them (longer runs
        // code shorter). The one LZW codes shortest is written.
        var raw = [UInt8](repeating: 0, count: rect.width * rect.height)
        let keyValue = key ?? 0
        // Unchanged pixels, and those of them not already the key's value.
        var unchanged = 0, unchangedOther = 0
        frame.withUnsafeBufferPointer { f in
            canvas.withUnsafeBufferPointer { c in
                position.withUnsafeBufferPointer { p in
                    raw.withUnsafeMutableBufferPointer { r in
                        for row in 0..<rect.height {
                            let src = (rect.y + row) * width + rect.x, dst = row * rect.width
                            for col in 0..<rect.width {
                                let v = f[src + col], value = p[Int(v)]
                                if v == c[src + col] {
                                    unchanged += 1
                                    if value != keyValue { unchangedOther += 1 }
                                }
                                r[dst + col] = value
                            }
                        }
                    }
                }
            }
        }
        // With no unchanged pixel, or none but those already the key's value (a transparent scene's
        // clear pixels, the key being its transparent index), the keyed and mixed renditions are
        // the raw one, which wins their tie: they are not built. (A draft codes the mixed one alone,
        // marked as keyed: built as before.)
        var keyed: [UInt8] = [], mixed: [UInt8] = []
        let keys = !isFirst && key != nil && unchanged > 0 && (draft || unchangedOther > 0)
        if keys {
            keyed = raw
            mixed = raw
            frame.withUnsafeBufferPointer { f in
                canvas.withUnsafeBufferPointer { c in
                    keyed.withUnsafeMutableBufferPointer { k in
                        mixed.withUnsafeMutableBufferPointer { m in
                            var previous = keyValue
                            for row in 0..<rect.height {
                                let src = (rect.y + row) * width + rect.x, dst = row * rect.width
                                for col in 0..<rect.width {
                                    let t = k[dst + col]
                                    let same = f[src + col] == c[src + col]
                                    if same { k[dst + col] = keyValue }
                                    let out = same && previous != t ? keyValue : t
                                    m[dst + col] = out
                                    previous = out
                                }
                            }
                        }
                    }
                }
            }
        }
        // Each rendition codes with the fewest bits that hold its largest index, as written. Each
        // is coded (`coder`, keeping the winner's bytes) or counted (`sizer`, the shortest then
        // coded by giflib) with the best so far as its limit, or `limit` while none is within it.
        var best: ExactRendition?
        var renditions = keys ? [(raw, false), (keyed, true), (mixed, true)] : [(raw, false)]
        if draft { renditions = [renditions[renditions.count - 1]] }
        for (n, (candidate, useKey)) in renditions.enumerated() {
            // A rendition the same as one before it codes the same bits, and ties go to the first.
            if renditions[..<n].contains(where: { $0.0 == candidate }) { continue }
            let codeSize = GIFStream.minimumCodeSize(maxIndex: Int(candidate.max() ?? 0))
            let cap = best?.bits ?? limit
            let bits = candidate.withUnsafeBufferPointer { pixels in
                codesItself ? coder.code(pixels, minimumCodeSize: codeSize, limit: cap)
                    : sizer.bits(pixels, minimumCodeSize: codeSize, limit: cap)
            }
            // Past the limit (neither coder stops exactly at it), or no shorter than the best so far.
            guard let bits, best.map({ bits < $0.bits }) ?? (bits <= limit) else { continue }
            best = ExactRendition(pixels: candidate, rect: rect, codeSize: codeSize, key: key, useKey: useKey, bits: bits,
                                  blocks: codesItself ? Array(coder.blocks) : nil)
        }
        return best
    }

    /// The rectangle an exact frame is written in: what changed and what the next frame needs
    /// cleared (a single pixel when neither).
    static func frameRect(changed: PixelRect, clear: PixelRect) -> PixelRect {
        let rect = changed.union(clear)
        return rect.isEmpty ? PixelRect(x: 0, y: 0, width: 1, height: 1) : rect
    }

    /// The first table entry no pixel of `frame` inside `rect` uses (as gifsicle picks its key), if any.
    func unusedEntry(_ frame: [UInt8], in rect: PixelRect) -> UInt8? {
        var used = [Bool](repeating: false, count: 256)
        frame.withUnsafeBufferPointer { f in
            for row in 0..<rect.height {
                let src = (rect.y + row) * width + rect.x
                for col in 0..<rect.width { used[Int(position[Int(f[src + col])])] = true }
            }
        }
        return (0..<tableSize).first { !used[$0] }.map(UInt8.init)
    }

    /// The disposal of a frame: cleared to the background when the next needs it, else kept.
    static func disposal(_ clear: Bool) -> Int32 { clear ? Int32(DISPOSE_BACKGROUND) : Int32(DISPOSE_DO_NOT) }

    /// What "restore to background" leaves: `rect` transparent, counted.
    func clearCanvas(_ rect: PixelRect) {
        guard let t = transparentIndex.map(UInt8.init) else { return }
        stats.framesCleared += 1
        let width = width
        canvas.withUnsafeMutableBufferPointer { c in GIFEncoder.fill(rect, with: t, in: c, width: width) }
    }

    /// Sets every pixel of `rect` in `pixels` (rows of `width`) to `value`.
    static func fill(_ rect: PixelRect, with value: UInt8, in pixels: UnsafeMutableBufferPointer<UInt8>, width: Int) {
        for row in rect.y..<rect.maxY { pixels[(row * width + rect.x)..<(row * width + rect.maxX)].update(repeating: value) }
    }
}

/// A straight-alpha 8-bit color; the encoders' own type so they know nothing of waves.
public struct RGBA8: Hashable, Sendable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }
}

/// A rectangle of whole pixels.
struct PixelRect: Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    static let empty = PixelRect(x: 0, y: 0, width: 0, height: 0)
    var isEmpty: Bool { width <= 0 || height <= 0 }
    var maxX: Int { x + width }
    var maxY: Int { y + height }

    func union(_ o: PixelRect) -> PixelRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        let x0 = min(x, o.x), y0 = min(y, o.y)
        return PixelRect(x: x0, y: y0, width: max(maxX, o.maxX) - x0, height: max(maxY, o.maxY) - y0)
    }

    /// The smallest rectangle holding every pixel where `a` and `b` (rows of `width`) differ:
    /// `bounding(in:width:_:)` with `a[i] != b[i]`, eight pixels a step.
    static func differing(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, width: Int) -> PixelRect {
        let pa = UnsafeRawPointer(a.baseAddress!), pb = UnsafeRawPointer(b.baseAddress!)
        return scanned(width: width, height: a.count / width,
                       word: { i in nonzeroBytes(load(pa, i) ^ load(pb, i)) }, pixel: { i in a[i] != b[i] })
    }

    /// The smallest rectangle holding every pixel where `a` is not `t` and `b` is:
    /// `bounding(in:width:_:)` with `a[i] != t && b[i] == t`, eight pixels a step.
    static func uncovered(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, key t: UInt8, width: Int) -> PixelRect {
        let pa = UnsafeRawPointer(a.baseAddress!), pb = UnsafeRawPointer(b.baseAddress!)
        let tt = UInt64(t) &* 0x0101_0101_0101_0101
        return scanned(width: width, height: a.count / width,
                       word: { i in nonzeroBytes(load(pa, i) ^ tt) & ~nonzeroBytes(load(pb, i) ^ tt) },
                       pixel: { i in a[i] != t && b[i] == t })
    }

    @inline(__always)
    private static func load(_ p: UnsafeRawPointer, _ i: Int) -> UInt64 {
        UInt64(littleEndian: p.loadUnaligned(fromByteOffset: i, as: UInt64.self))
    }

    /// The top bit of each byte of `v` that is not zero (exact: no carry crosses a byte).
    @inline(__always)
    private static func nonzeroBytes(_ v: UInt64) -> UInt64 {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ((v & low) &+ low | v) & ~low
    }

    /// `bounding` over a whole frame, `word(i)` marking (top bit of byte k) which of pixels
    /// i…i+7 pass, `pixel(i)` the test for one.
    @inline(__always)
    private static func scanned(width: Int, height: Int, word: (Int) -> UInt64, pixel: (Int) -> Bool) -> PixelRect {
        var x0 = width, y0 = -1, x1 = -1, y1 = -1
        for y in 0..<height {
            let row = y * width
            var first = -1, x = 0
            while x + 8 <= width {
                let m = word(row + x)
                if m != 0 { first = x + m.trailingZeroBitCount / 8; break }
                x += 8
            }
            if first < 0 {
                while x < width { if pixel(row + x) { first = x; break }; x += 1 }
            }
            guard first >= 0 else { continue }
            var last = first, end = width, found = false
            while end - 8 >= first {
                let m = word(row + end - 8)
                if m != 0 { last = end - 8 + (63 - m.leadingZeroBitCount) / 8; found = true; break }
                end -= 8
            }
            if !found {
                var x = end - 1
                while x > first { if pixel(row + x) { last = x; break }; x -= 1 }
            }
            x0 = min(x0, first)
            x1 = max(x1, last)
            if y0 < 0 { y0 = y }
            y1 = y
        }
        return x1 < 0 ? .empty : PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }

    /// The smallest rectangle inside `area` holding every pixel for which `test` is true; `test`
    /// takes the pixel's index in rows of `width` pixels.
    @inline(__always)
    static func bounding(in area: PixelRect, width: Int, _ test: (Int) -> Bool) -> PixelRect {
        var x0 = area.maxX, y0 = area.maxY, x1 = -1, y1 = -1
        for y in area.y..<max(area.y, area.maxY) {
            let row = y * width
            var firstInRow = -1
            for x in area.x..<area.maxX where test(row + x) { firstInRow = x; break }
            guard firstInRow >= 0 else { continue }
            var lastInRow = firstInRow
            for x in stride(from: area.maxX - 1, to: firstInRow, by: -1) where test(row + x) { lastInRow = x; break }
            x0 = min(x0, firstInRow)
            x1 = max(x1, lastInRow)
            if y0 == area.maxY { y0 = y }
            y1 = y
        }
        return x1 < 0 ? .empty : PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }
}

extension GIFEncoder {
    /// The giflib release encoding the files ("5.2.1"): a different one may write different bytes.
    public static let libraryVersion = "\(GIFLIB_MAJOR).\(GIFLIB_MINOR).\(GIFLIB_RELEASE)"
}
