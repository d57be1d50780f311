import WavePlatform
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

    /// The CSS `animation` value for keyframes `name` running `micros` per iteration,
    /// `perLoop` iterations per loop, as often as the preset's `loops` says. A finite count stops
    /// on the last frame of the last loop, as the raster formats do.
    func animation(_ name: String, micros: Int, perLoop: Int = 1, timing: String = "linear") -> String {
        let duration = SVGPathData.format(units: micros, decimals: 3) + "ms"
        guard config.loops > 0 else { return "\(name) \(duration) \(timing) infinite" }
        let iterations = Double(perLoop) * (Double(config.loops) - 1 / Double(plan.frameCount))
        return "\(name) \(duration) \(timing) \(SVGPathData.format(iterations, decimals: 6)) forwards"
    }

    /// A keyframe's CSS timing function: `cubic-bezier(.364,0,.636,1)`.
    static func timing(_ e: VectorScene.Easing) -> String {
        "cubic-bezier(" + [e.x1, e.y1, e.x2, e.y2].map { SVGPathData.format($0, decimals: 3) }.joined(separator: ",") + ")"
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
