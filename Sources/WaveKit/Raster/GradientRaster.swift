import Dispatch
import WavePlatform

/// The frames of a scene with gradients, in true color: every paint takes its color at each pixel's
/// center (`ScenePaint`), and the pixel mixes the colors of the layer sets, the ring and the
/// background by the exact coverage `SceneRaster.color` computes. Pixels are stored as the target
/// stores them (`RenderTarget.store`: straight RGBA, or a GIF's matte, cut or dithered edges), a
/// transparent pixel as four zero bytes.
///
/// As `SceneRaster` does, it addresses pixels in the wave frame; a gradient lies on the canvas
/// (it spans the shape's box there, as CSS places it), so each pixel's paint is taken at the center
/// of the canvas pixel it is (`SceneRaster.canvas`). `FrameRenderer` lays the frame out on the canvas.
struct GradientRaster: Sendable {
    let scene: SceneRaster
    let paint: ScenePaint
    let target: RenderTarget
    /// Stored RGBA of every pixel with no layer over it, and with every layer over it.
    let baseFrame: [UInt8]
    let fullFrame: [UInt8]
    /// The loop's color count and frames as `colorCounts` drew them, for the tables and the
    /// frames drawn after it (`frame(_:of:into:)`); shared by every copy of this raster.
    let kept = Kept()

    init(scene: SceneRaster, target: RenderTarget) {
        self.scene = scene
        self.target = target
        let paint = ScenePaint(config: scene.config)
        self.paint = paint
        let coverage = scene.coverage, width = coverage.width
        var base = [UInt8](repeating: 0, count: width * coverage.height * 4)
        var full = base
        // One storage for every pixel's colors (`ScenePaint.colors(atX:y:in:)`).
        let storage = UnsafeMutableBufferPointer<PremultipliedColor>.allocate(capacity: paint.storageCount)
        defer { storage.deallocate() }
        for y in 0..<coverage.height {
            for x in 0..<width {
                let i = y * width + x
                let local = GradientRaster.colors(paint, scene, x, y, in: storage)
                let b = Double(coverage.border[i])
                GradientRaster.put(local.background.mixed(with: local.ring, b), at: i, x, y, target, &base)
                let w = Double(coverage.water[i])
                guard w > 0, coverage.waterSpans[y].contains(x) else {
                    for k in 0..<4 { full[i * 4 + k] = base[i * 4 + k] }
                    continue
                }
                let water = w == 1 || scene.subcolumnsReachWater(x, y) ? local.allLayers : local.background
                let color = scene.mix(water: water, w, ring: b, background: local.background, ringColor: local.ring)
                GradientRaster.put(color, at: i, x, y, target, &full)
            }
        }
        baseFrame = base
        fullFrame = full
    }

    /// The colors at the center of the canvas pixel that wave-frame pixel (x, y) is, kept in
    /// `storage` (`ScenePaint.colors(atX:y:in:)`).
    @inline(__always)
    static func colors(_ paint: ScenePaint, _ scene: SceneRaster, _ x: Int, _ y: Int,
                       in storage: UnsafeMutableBufferPointer<PremultipliedColor>) -> LocalColors {
        let (cx, cy) = scene.canvas(x, y)
        return paint.colors(atX: Double(cx) + 0.5, y: Double(cy) + 0.5, in: storage)
    }

    @inline(__always)
    static func put(_ c: PremultipliedColor, at i: Int, _ x: Int, _ y: Int, _ target: RenderTarget, _ out: inout [UInt8]) {
        let s = target.store(c, x: x, y: y) ?? .transparent
        out[i * 4] = s.r
        out[i * 4 + 1] = s.g
        out[i * 4 + 2] = s.b
        out[i * 4 + 3] = s.a
    }

    /// Draws frame `frame` of a loop of `count` into `out` (the wave frame's width × height × 4
    /// bytes). As the
    /// indexed renderer does, rows above a column's highest crest keep the base frame and rows
    /// below its lowest trough the full-water frame; every pixel between, and the rider's and the
    /// label's, is composited exactly with the colors at its center.
    func render(frame: Int, of count: Int, into out: inout [UInt8]) {
        let width = scene.coverage.width, height = scene.coverage.height
        out.removeAll(keepingCapacity: true)
        out.append(contentsOf: baseFrame)
        guard !scene.waterColumns.isEmpty else { return }
        let f = scene.frame(frame, of: count)
        let coverage = scene.coverage
        let x0 = scene.waterColumns.lowerBound
        // Per column: rows from `top` on may be crossed, rows from `bottom` on lie below every surface.
        var top = [Int](repeating: 0, count: scene.waterColumns.count), bottom = top
        for c in top.indices {
            let (lo, hi) = f.samples.extent(column: c)
            top[c] = lo.isFinite ? Int(lo.rounded(.down)) : height
            bottom[c] = hi.isFinite ? Int(hi.rounded(.up)) : height
        }
        var drawn = [Bool](repeating: false, count: width * height)
        let storage = UnsafeMutableBufferPointer<PremultipliedColor>.allocate(capacity: paint.storageCount)
        defer { storage.deallocate() }
        for y in 0..<height {
            for x in coverage.waterSpans[y] {
                let p = y * width + x, c = x - x0
                if y >= bottom[c] {
                    GradientRaster.copyPixel(p, from: fullFrame, into: &out)
                } else if y >= top[c], coverage.water[p] > 0 {
                    draw(x, y, f, into: &out, storage)
                    drawn[p] = true
                }
            }
        }
        for (rows, cols) in scene.overlayAreas(f) {
            for y in rows {
                for x in coverage.waterSpans[y].clamped(to: cols) where coverage.water[y * width + x] > 0 && !drawn[y * width + x]
                    && scene.onOverlay(x, y, f) {
                    draw(x, y, f, into: &out, storage)
                }
            }
        }
    }

    /// Pixel `p`'s four bytes of `source` into `out`, as one word.
    @inline(__always)
    static func copyPixel(_ p: Int, from source: [UInt8], into out: inout [UInt8]) {
        let word = source.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: p * 4, as: UInt32.self) }
        out.withUnsafeMutableBytes { $0.storeBytes(of: word, toByteOffset: p * 4, as: UInt32.self) }
    }

    @inline(__always)
    private func draw(_ x: Int, _ y: Int, _ f: SceneRaster.Frame, into out: inout [UInt8],
                      _ storage: UnsafeMutableBufferPointer<PremultipliedColor>) {
        let local = GradientRaster.colors(paint, scene, x, y, in: storage)
        GradientRaster.put(scene.color(x, y, f, local: local), at: y * scene.coverage.width + x, x, y, target, &out)
    }

    /// Frame `frame` of a loop of `count`, as `render(frame:of:into:)` draws it: the frame
    /// `colorCounts` kept when it counted this loop (handed over once, then let go), else drawn.
    func frame(_ frame: Int, of count: Int, into out: inout [UInt8]) {
        if let f = kept.take(frame, of: count) {
            out = f
        } else {
            render(frame: frame, of: count, into: &out)
        }
    }

    /// Loops whose frames together take at most this many bytes keep them after the color count.
    static let keptBytes = 32 << 20

    /// How many pixels of the loop's `frames` frames show each stored color (packed straight
    /// RGBA, r in the top byte; transparent is 0). Counted once per loop (every table of the scene
    /// asks), the frames drawn on the cores and, for a small loop and with `keeping`, kept for
    /// drawing them again (each once: `frame(_:of:into:)`).
    func colorCounts(frames: Int, keeping: Bool = true) -> [UInt32: Int] {
        if let counts = kept.counts(of: frames) { return counts }
        let keep = keeping && scene.coverage.width * scene.coverage.height * 4 * frames <= GradientRaster.keptBytes
        let threads = scene.coverage.width * scene.coverage.height * frames >= 1 << 18 ? max(1, min(frames, ProcessEnvironment.activeProcessorCount)) : 1
        // Each thread counts every `threads`-th frame into a table of its own; counts add up the
        // same in any order.
        let parts = SharedSlots<(counts: ColorTally, drawn: [[UInt8]])>(count: threads)
        // A thread's frames differ from its frame before in few pixels: its first frame is counted
        // once for every frame it draws, and each later frame's changes once for it and every
        // frame after it (the colors it shows added, those it no longer shows taken away).
        let work: @Sendable (Int) -> Void = { t in
            var counts = ColorTally()
            var rgba: [UInt8] = [], previous: [UInt8] = []
            var drawn: [[UInt8]] = []
            let mine = Array(stride(from: t, to: frames, by: threads))
            for (j, k) in mine.enumerated() {
                render(frame: k, of: frames, into: &rgba)
                if j == 0 {
                    GradientRaster.count(rgba, into: &counts, times: mine.count)
                } else {
                    GradientRaster.countChanges(from: previous, to: rgba, into: &counts, times: mine.count - j)
                }
                if keep {
                    drawn.append(rgba)
                    previous = rgba
                } else {
                    swap(&rgba, &previous)
                }
            }
            parts.set(t, (counts, drawn))
        }
        if threads > 1 {
            DispatchQueue.concurrentPerform(iterations: threads, execute: work)
        } else {
            work(0)
        }
        let done = parts.values.map { $0! }
        var tally = done[0].counts
        for part in done.dropFirst() { part.counts.forEach { tally.add($0, $1) } }
        var counts: [UInt32: Int] = Dictionary(minimumCapacity: tally.count)
        tally.forEach { counts[$0] = $1 }
        // Thread t drew frames t, t + threads, …: its j-th is frame t + j × threads.
        let drawn: [[UInt8]]? = keep ? (0..<frames).map { done[$0 % threads].drawn[$0 / threads] } : nil
        kept.keep(counts, frames: drawn, of: frames)
        return counts
    }

    /// Adds one frame's pixels to `counts`; runs of one color count once in the table.
    static func count(_ rgba: [UInt8], into counts: inout [UInt32: Int]) {
        rgba.withUnsafeBufferPointer { rgba in
            var run = 0, key: UInt32 = 0
            for p in stride(from: 0, to: rgba.count, by: 4) {
                let next = packed(rgba, p)
                if run > 0 && next != key {
                    counts[key, default: 0] += run
                    run = 0
                }
                key = next
                run += 1
            }
            if run > 0 { counts[key, default: 0] += run }
        }
    }

    /// `count(_:into:)` into a `ColorTally`: the same counts, without hashing every run through a
    /// dictionary.
    static func count(_ rgba: [UInt8], into tally: inout ColorTally, times: Int = 1) {
        rgba.withUnsafeBufferPointer { rgba in
            let bytes = UnsafeRawBufferPointer(rgba)
            // A run goes on while the pixel's four bytes stay the same: the same packed color.
            var run = 0, key: UInt32 = 0, word: UInt32 = 0
            for p in stride(from: 0, to: rgba.count - 3, by: 4) {
                let next = bytes.loadUnaligned(fromByteOffset: p, as: UInt32.self)
                if run > 0 && next == word {
                    run += 1
                    continue
                }
                let color = packed(rgba, p)
                if run > 0 && color != key {
                    tally.add(key, run * times)
                    run = 0
                }
                key = color
                word = next
                run += 1
            }
            if run > 0 { tally.add(key, run * times) }
        }
    }

    /// Adds `times` × (the colors of `frame` less those of `previous`, pixel by pixel) to `tally`:
    /// only the pixels that changed are looked at. Taken after the first frame was counted `times`
    /// or more times over, every color taken away was added before, and none is left below 1.
    static func countChanges(from previous: [UInt8], to frame: [UInt8], into tally: inout ColorTally, times: Int) {
        precondition(previous.count == frame.count, "frame size")
        previous.withUnsafeBufferPointer { old in
            frame.withUnsafeBufferPointer { new in
                let a = UnsafeRawBufferPointer(old), b = UnsafeRawBufferPointer(new)
                for p in stride(from: 0, to: new.count - 3, by: 4)
                where a.loadUnaligned(fromByteOffset: p, as: UInt32.self) != b.loadUnaligned(fromByteOffset: p, as: UInt32.self) {
                    let gone = packed(old, p), shown = packed(new, p)
                    guard gone != shown else { continue }
                    tally.add(shown, times)
                    tally.add(gone, -times)
                }
            }
        }
    }

    /// The packed straight RGBA at byte `p` (r in the top byte; 0 for transparent).
    @inline(__always)
    static func packed(_ rgba: UnsafeBufferPointer<UInt8>, _ p: Int) -> UInt32 {
        rgba[p + 3] == 0 ? 0 : UInt32(rgba[p]) << 24 | UInt32(rgba[p + 1]) << 16 | UInt32(rgba[p + 2]) << 8 | UInt32(rgba[p + 3])
    }

    /// The color count of each loop length counted, and for a small loop its frames until taken.
    final class Kept: @unchecked Sendable {
        private let lock = Lock()
        private var counts: [Int: [UInt32: Int]] = [:]
        private var frames: [Int: [[UInt8]?]] = [:]

        func counts(of count: Int) -> [UInt32: Int]? { lock.withLock { counts[count] } }

        /// Frame `k` of the loop of `count`, once: the store lets it go.
        func take(_ k: Int, of count: Int) -> [UInt8]? {
            lock.withLock {
                guard let loop = frames[count], loop.indices.contains(k), let f = loop[k] else { return nil }
                frames[count]![k] = nil
                return f
            }
        }

        func keep(_ c: [UInt32: Int], frames f: [[UInt8]]?, of count: Int) {
            lock.withLock {
                counts[count] = c
                if let f { frames[count] = f }
            }
        }
    }
}

/// How many pixels show each packed color: an open-addressed table of keys and counts (a power of
/// two slots, at most half full), with transparent (key 0, the empty slot's mark) counted apart.
struct ColorTally: Sendable {
    private var keys = [UInt32](repeating: 0, count: 1 << 12)
    private var counts = [Int](repeating: 0, count: 1 << 12)
    private var transparent = 0
    private var filled = 0

    /// Distinct colors counted.
    var count: Int { filled + (transparent > 0 ? 1 : 0) }

    @inline(__always)
    mutating func add(_ key: UInt32, _ n: Int) {
        guard key != 0 else { transparent += n; return }
        let mask = keys.count - 1
        var h = Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
        while keys[h] != 0 {
            if keys[h] == key {
                counts[h] += n
                return
            }
            h = (h + 1) & mask
        }
        keys[h] = key
        counts[h] = n
        filled += 1
        if 2 * filled > keys.count { grow() }
    }

    private mutating func grow() {
        let (oldKeys, oldCounts) = (keys, counts)
        keys = [UInt32](repeating: 0, count: 2 * oldKeys.count)
        counts = [Int](repeating: 0, count: 2 * oldKeys.count)
        filled = 0
        for i in oldKeys.indices where oldKeys[i] != 0 { add(oldKeys[i], oldCounts[i]) }
    }

    /// Every color counted and its pixels (in no particular order).
    func forEach(_ body: (UInt32, Int) -> Void) {
        if transparent > 0 { body(0, transparent) }
        for i in keys.indices where keys[i] != 0 { body(keys[i], counts[i]) }
    }
}
