import WavePlatform
import WaveKit
import WaveAPNG
import WaveText

/// What the vector writers (SVG, Lottie) share: the wave model at the planned speeds, each layer's
/// surface within a tolerance (as Béziers for Lottie, straight lines for SVG), the level's
/// keyframes, the rider's poses at every planned frame and its embedded image. The writers only spell these in their own syntax, so an SVG and a
/// Lottie of one preset show the same picture at the same time.
///
/// Surfaces, the level and the spans are in the wave frame (`WaveModel.orientation`), where the
/// water fills upwards; the writers put the water in a group turned onto the canvas by
/// `orientation.matrix`, under the canvas's clip. The rider's poses are on the canvas.
struct VectorScene {
    let config: WaveConfig
    let plan: LoopPlan
    let model: WaveModel

    init(config: WaveConfig, plan: LoopPlan) {
        self.config = config
        self.plan = plan
        model = WaveModel(config: config, plan: plan)
    }

    /// Largest vertical distance between a traced surface and the true sine, in output pixels.
    static let surfaceTolerance = 0.02
    /// The part of `surfaceTolerance` the Béziers themselves may use; rounding gets the rest.
    static let bezierTolerance = 0.01
    /// The part of `surfaceTolerance` the SVG's lines may use (vertices may sit off the sine by as
    /// much); rounding gets the rest.
    static let lineTolerance = 0.014
    /// How far the level may lie off from the planned frames' values between keyframes, in output
    /// pixels: keyframes are exact at every planned frame and between them within this.
    static let levelTolerance = 0.05

    // MARK: Surfaces

    /// The layer that the rider rides, which splits the layers into those behind it and those in front.
    var riderLayer: Int { min(config.rider?.layer ?? model.frontLayer, model.frontLayer) }

    /// Whether `figure` (the water region) covers the whole canvas, so that nothing needs clipping.
    func fillsCanvas(_ figure: OutlineFigure) -> Bool {
        guard case let .rect(r, radius) = figure else { return false }
        return radius == 0 && r.x <= 0 && r.y <= 0 && r.maxX >= Double(config.width) && r.maxY >= Double(config.height)
    }

    /// How far down the closed surface paths reach, in output pixels: below the box even when the
    /// level moves the water up, so no moving surface shows its bottom edge.
    func waterBottom(levelKeyframes: [Keyframe]?) -> Double {
        let rise = max(0, -(levelKeyframes?.map(\.value).min() ?? 0))
        return (model.waveBox.maxY + rise + 1).rounded(.up)
    }

    /// Layer i's surface in `surfaces`, as the wave model places it.
    func sine(layer i: Int, surfaces: WaveModel.Surfaces) -> SineBeziers {
        let layer = config.layers[i]
        return SineBeziers(amplitude: layer.amplitude, wavelength: layer.wavelength, phase: surfaces.phase[i],
                           origin: surfaces.origin, base: surfaces.base[i], tolerance: VectorScene.bezierTolerance)
    }

    /// The span a surface path covers: the water box's width and the distance `shift` its drift
    /// moves it, plus a pixel each side.
    func span(shift: Double) -> (lower: Double, upper: Double) {
        (model.waveBox.x - max(0, shift) - 1, model.waveBox.maxX - min(0, shift) + 1)
    }

    /// Layer i's surface in `surfaces` and its Béziers over `span(shift:)`, left to right.
    func surface(layer i: Int, surfaces: WaveModel.Surfaces, shift: Double) -> (sine: SineBeziers, segments: [CubicSegment]) {
        let sine = sine(layer: i, surfaces: surfaces), (lower, upper) = span(shift: shift)
        return (sine, sine.segments(from: lower, to: upper))
    }

    /// Layer i's surface in `surfaces` as straight lines over `span(shift:)`, the same in every
    /// wavelength (see `SineBeziers.periodicLines`).
    func surfaceLines(layer i: Int, surfaces: WaveModel.Surfaces, shift: Double) -> (sine: SineBeziers, vertices: [PathPoint]) {
        let sine = sine(layer: i, surfaces: surfaces), (lower, upper) = span(shift: shift)
        return (sine, sine.periodicLines(from: lower, to: upper, tolerance: VectorScene.lineTolerance))
    }

    /// The first of `trace(2)`, `trace(3)`, `trace(4)` (a surface written with that many decimals,
    /// and how far the curve a reader traces from the rounded numbers strays from the sine) that
    /// stays within `surfaceTolerance`; the last when none does.
    static func roundedWithinTolerance<T>(_ trace: (_ decimals: Int) -> (T, deviation: Double)) -> T {
        var best: T?
        for decimals in 2...4 {
            let (written, deviation) = trace(decimals)
            best = written
            if deviation <= surfaceTolerance { break }
        }
        return best!
    }

    // MARK: Level

    /// The level's offset from its place at frame 0 at loop fraction u, in output pixels (positive
    /// down).
    func levelOffset(_ u: Double) -> Double {
        let n = plan.frameCount
        return model.waveBox.height * (config.level.level(atLoopFraction: 0, frames: n) - config.level.level(atLoopFraction: u, frames: n))
    }

    /// A cubic Bézier timing curve from (0, 0) to (1, 1) through (x1, y1) and (x2, y2), as CSS's
    /// `cubic-bezier()` and Lottie's keyframe handles state it.
    struct Easing: Equatable {
        var x1, y1, x2, y2: Double
    }

    /// A keyframe: loop fraction, value, and the easing towards the next (nil: linear).
    struct Keyframe {
        var u: Double
        var value: Double
        var easing: Easing?
    }

    /// The easing `(.364, 0, .636, 1)`: within 0.00025 of the half cosine `easeInOut` uses, over the
    /// whole ramp.
    static let easeInOutBezier = Easing(x1: 0.364, y1: 0, x2: 0.636, y2: 1)
    /// The easing `(.328, .515, .639, 1)`: within 0.0001 of a quarter sine, sin(πp/2), from a zero
    /// crossing to a crest.
    static let quarterSineOut = Easing(x1: 0.328, y1: 0.515, x2: 0.639, y2: 1)
    /// The mirror of `quarterSineOut`: 1 − cos(πp/2), from a crest to a zero crossing.
    static let quarterSineIn = Easing(x1: 0.361, y1: 0, x2: 0.672, y2: 0.485)

    /// The level's keyframes, or nil when it does not move. Ramps use their ends and an easing, and
    /// the tide its zero crossings and turns with quarter and half sine easings, when that stays
    /// within `levelTolerance` of the level at every time; otherwise keyframes at every planned
    /// frame, subdivided until linear steps between them stay within it.
    func levelKeyframes() -> [Keyframe]? {
        guard config.level.moves else { return nil }
        let n = plan.frameCount
        var stops: [(u: Double, easing: Easing?)] = []
        switch config.level {
        case let .ramp(_, _, ease, pingpong) where pingpong || n > 1:
            let easing = ease == .easeInOut ? VectorScene.easeInOutBezier : nil
            stops = (pingpong ? [0, 0.5, 1] : [0, Double(n - 1) / Double(n), 1]).map { ($0, easing) }
        case .tide:
            stops = [(0, VectorScene.quarterSineOut), (0.25, VectorScene.easeInOutBezier), (0.75, VectorScene.quarterSineIn), (1, nil)]
        default:
            break
        }
        let eased = stops.map { Keyframe(u: $0.u, value: levelOffset($0.u), easing: $0.easing) }
        if !eased.isEmpty, VectorScene.deviation(of: eased, from: levelOffset) <= VectorScene.levelTolerance { return eased }
        return dense(levelOffset)
    }

    /// The largest distance between the motion `keyframes` describe (each eased towards the next)
    /// and `f`, sampled 4,000 times over the loop.
    static func deviation(of keyframes: [Keyframe], from f: (Double) -> Double) -> Double {
        var worst = 0.0
        var k = 0
        for i in 0...4000 {
            let u = Double(i) / 4000
            while k + 2 < keyframes.count, u > keyframes[k + 1].u { k += 1 }
            let a = keyframes[k], b = keyframes[min(k + 1, keyframes.count - 1)]
            let p = b.u > a.u ? min(1, max(0, (u - a.u) / (b.u - a.u))) : 1
            let progress = a.easing.map { cubicBezier($0, at: p) } ?? p
            worst = max(worst, abs(a.value + (b.value - a.value) * progress - f(u)))
        }
        return worst
    }

    /// Keyframes at every planned frame of `f`, each step split in m equal parts, m the least that
    /// keeps straight lines between keyframes within `levelTolerance` of f.
    func dense(_ f: (Double) -> Double) -> [Keyframe] {
        let n = plan.frameCount
        var m = 1
        while m < 64 {
            let count = n * m
            var worst = 0.0
            for k in 0..<count {
                let a = Double(k) / Double(count), b = Double(k + 1) / Double(count)
                let fa = f(a), fb = f(b)
                for s in 1..<8 {
                    let t = Double(s) / 8
                    worst = max(worst, abs(f(a + (b - a) * t) - (fa + (fb - fa) * t)))
                }
            }
            if worst <= VectorScene.levelTolerance { break }
            m += 1
        }
        return (0...(n * m)).map { k in
            let u = Double(k) / Double(n * m)
            return Keyframe(u: u, value: f(u), easing: nil)
        }
    }

    /// The timing curve `b` at input progress p.
    static func cubicBezier(_ b: Easing, at p: Double) -> Double {
        var lo = 0.0, hi = 1.0
        for _ in 0..<60 {
            let t = (lo + hi) / 2
            let x = 3 * (1 - t) * (1 - t) * t * b.x1 + 3 * (1 - t) * t * t * b.x2 + t * t * t
            if x < p { lo = t } else { hi = t }
        }
        let t = (lo + hi) / 2
        return 3 * (1 - t) * (1 - t) * t * b.y1 + 3 * (1 - t) * t * t * b.y2 + t * t * t
    }

    // MARK: Rider

    /// The rider's pose (anchor on the canvas in output pixels, turn in radians clockwise) at every
    /// planned frame 0…N, frame N closing the loop: on the canvas, upright, whichever way the water
    /// fills.
    func riderPoses(_ rider: Rider) -> [(x: Double, y: Double, angle: Double)] {
        let n = plan.frameCount
        return (0...n).map { k in
            let pose = rider.pose(on: model.surfaces(atLoopFraction: Double(k) / Double(n), frames: n), box: model.waveBox)
            let (x, y) = model.orientation.canvasPoint(pose.x, pose.y)
            return (x, y, model.orientation.canvasAngle(pose.angle))
        }
    }

    /// The rider's image shrunk to at most `resolution` pixels per displayed pixel, as PNG bytes,
    /// with its size in pixels. `format` names the writer in an encoding failure.
    func riderPNG(_ rider: Rider, resolution: Double, format: String) throws(WaveError) -> (png: [UInt8], width: Int, height: Int) {
        let image = rider.image.resampled(width: max(1, Int(saturating: (rider.width * resolution).rounded(.up))),
                                          height: max(1, Int(saturating: (rider.height * resolution).rounded(.up))))
        do {
            return (try EncodedStills.shared.png(image), image.width, image.height)
        } catch {
            throw WaveError(.failure, ["\(format): \(error.description)"])
        }
    }
}

/// The rider PNGs this process has encoded, by their pixels. Encoding one (six filter trials and
/// a slow final deflate) costs more than the rest of a vector file, and the same rider goes into
/// every save's SVG in the live preview, into both a Lottie's document and its archive, and into
/// each output of a manifest's preset: it is encoded once. The bytes do not depend on the cache.
final class EncodedStills: @unchecked Sendable {
    static let shared = EncodedStills()

    /// The most images kept (the oldest is let go first).
    static let capacity = 8

    private let lock = Lock()
    private var entries: [(image: RiderImage, png: [UInt8])] = []

    /// How many images are kept.
    var count: Int { lock.withLock { entries.count } }

    /// `image` as `StillPNG.encode` writes it.
    func png(_ image: RiderImage) throws(StillPNGError) -> [UInt8] {
        if let hit = lock.withLock({ entries.first { $0.image == image }?.png }) { return hit }
        let png = try StillPNG.encode(rgba: image.rgba, width: image.width, height: image.height)
        lock.withLock {
            if !entries.contains(where: { $0.image == image }) { entries.append((image, png)) }
            if entries.count > EncodedStills.capacity { entries.removeFirst() }
        }
        return png
    }
}

/// The label as the vector writers draw it: each distinct text of the planned frames, in order of
/// first appearance, with its placement on the canvas (the raster's) and its glyph outlines, and
/// for each planned frame the index of its text. Empty without a label.
struct VectorLabel {
    var texts: [(text: String, overlay: LabelOverlay, outline: TextOutline)] = []
    var textOfFrame: [Int] = []

    init(_ animation: Animation) throws(WaveError) {
        guard let label = animation.label else { return }
        let n = animation.plan.frameCount
        var index: [String: Int] = [:]
        for k in 0..<n {
            let text = label.text(frame: k, of: n)
            if let i = index[text] { textOfFrame.append(i); continue }
            guard let overlay = label.overlays[text], let outline = try LabelOverlay.outlines(for: animation.config, text: text) else { continue }
            index[text] = texts.count
            textOfFrame.append(texts.count)
            texts.append((text, overlay, outline))
        }
    }
}
