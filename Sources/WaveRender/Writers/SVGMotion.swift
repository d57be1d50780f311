import Foundation
import WaveKit

/// The timing of an SVG's CSS animations: durations, iteration counts and keyframes that follow
/// the loop plan, so that at time t the SVG shows what the raster frames show at t.
struct SVGMotion {
    let config: WaveConfig
    let plan: LoopPlan
    /// Loop length in microseconds (CSS times are written in ms with three decimals).
    let loopMicros: Int

    init(config: WaveConfig, plan: LoopPlan) {
        self.config = config
        self.plan = plan
        loopMicros = max(1, Int((plan.duration * 1e6).rounded()))
    }

    /// How far the level group moves, in output pixels, where it may lie off from the planned
    /// frames' values: keyframes are exact at every frame and between them within this.
    static let levelTolerance = 0.05

    /// The CSS `animation` value for keyframes `name` running `micros` per iteration,
    /// `perLoop` iterations per loop, as often as the preset's `loops` says. A finite count stops
    /// on the last frame of the last loop, as the raster formats do.
    func animation(_ name: String, micros: Int, perLoop: Int = 1, timing: String = "linear") -> String {
        let duration = SVGPathData.format(units: micros, decimals: 3) + "ms"
        guard config.loops > 0 else { return "\(name) \(duration) \(timing) infinite" }
        let iterations = Double(perLoop) * (Double(config.loops) - 1 / Double(plan.frameCount))
        return "\(name) \(duration) \(timing) \(SVGPathData.format(iterations, decimals: 6)) forwards"
    }

    /// One layer's drift: the distance one iteration moves it (output pixels, positive right) and
    /// the iteration's length. A layer that travels `cycles` wavelengths per loop moves one
    /// wavelength per 1/|cycles| of the loop when that time is a whole number of microseconds
    /// (a shorter path), else all `cycles` wavelengths per loop. Nil for a still layer.
    func drift(layer i: Int) -> (distance: Double, micros: Int, perLoop: Int)? {
        let cycles = plan.layers[i].cycles
        guard cycles != 0 else { return nil }
        let wavelength = config.layers[i].wavelength
        if loopMicros % abs(cycles) == 0 {
            return (cycles > 0 ? wavelength : -wavelength, loopMicros / abs(cycles), abs(cycles))
        }
        return (Double(cycles) * wavelength, loopMicros, 1)
    }

    /// The level group's offset from its place at frame 0 at loop fraction u, in output pixels
    /// (positive down).
    func levelOffset(_ u: Double) -> Double {
        let n = plan.frameCount
        return config.box.height * (config.level.level(atLoopFraction: 0, frames: n) - config.level.level(atLoopFraction: u, frames: n))
    }

    /// A keyframe: loop fraction, value, and the timing function towards the next (nil: linear).
    struct Keyframe {
        var u: Double
        var value: Double
        var timing: String?
    }

    /// The easing CSS states as `cubic-bezier(.364,0,.636,1)`: within 0.00025 of the half cosine
    /// `easeInOut` uses, over the whole ramp.
    static let easeInOutBezier = (x1: 0.364, y1: 0.0, x2: 0.636, y2: 1.0)

    /// The level's keyframes, or nil when it does not move. Ramps use their ends and a timing
    /// function when that stays within `levelTolerance`; otherwise (and for the tide) keyframes at
    /// every planned frame, subdivided until linear steps between them stay within it.
    func levelKeyframes() -> [Keyframe]? {
        guard config.level.moves else { return nil }
        let n = plan.frameCount
        if case let .ramp(from, to, ease, pingpong) = config.level, pingpong || n > 1 {
            let span = abs(to - from) * config.box.height
            var timing: String?
            if ease == .easeInOut {
                let b = SVGMotion.easeInOutBezier
                let worst = (0...1000).map { k -> Double in
                    let p = Double(k) / 1000
                    return abs(SVGMotion.cubicBezier(b.x1, b.y1, b.x2, b.y2, at: p) - ease.apply(p)) * span
                }.max() ?? 0
                if worst <= SVGMotion.levelTolerance { timing = "cubic-bezier(.364,0,.636,1)" }
            }
            if ease == .linear || timing != nil {
                let stops = pingpong ? [0, 0.5, 1] : [0, Double(n - 1) / Double(n), 1]
                return stops.map { Keyframe(u: $0, value: levelOffset($0), timing: timing) }
            }
        }
        return dense(levelOffset)
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
            if worst <= SVGMotion.levelTolerance { break }
            m += 1
        }
        return (0...(n * m)).map { k in
            let u = Double(k) / Double(n * m)
            return Keyframe(u: u, value: f(u), timing: nil)
        }
    }

    /// CSS `cubic-bezier(x1, y1, x2, y2)` at input progress p.
    static func cubicBezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at p: Double) -> Double {
        var lo = 0.0, hi = 1.0
        for _ in 0..<60 {
            let t = (lo + hi) / 2
            let x = 3 * (1 - t) * (1 - t) * t * x1 + 3 * (1 - t) * t * t * x2 + t * t * t
            if x < p { lo = t } else { hi = t }
        }
        let t = (lo + hi) / 2
        return 3 * (1 - t) * (1 - t) * t * y1 + 3 * (1 - t) * t * t * y2 + t * t * t
    }

    /// The keyframe selector where frame `k` of `n` starts, rounded down to the written precision,
    /// so that at the frame's own time the keyframe has been reached.
    static func percent(frameStart k: Int, of n: Int) -> String {
        let units = Int((Double(k) * 100_000 / Double(n)).rounded(.down))
        return SVGPathData.format(units: units, decimals: 3) + "%"
    }

    /// A keyframe selector: the loop fraction in percent.
    static func percent(_ u: Double) -> String {
        SVGPathData.format(u * 100, decimals: 3) + "%"
    }
}
