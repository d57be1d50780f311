import WavePlatform

/// Why no plan could be made.
public enum PlanError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No frame count within the bounds closes the loop within tolerance; `nearest` is the best there is.
    /// `fitsAt` is the smallest frame count above `maxFrames` (within the ceiling) that does close.
    case noSeamlessLoop(nearest: LoopPlan, minFrames: Int, maxFrames: Int, tolerance: Double, fitsAt: Int?)
    /// A fixed duration moved a speed further than the tolerance allows (with `--strict`).
    case speedChangeTooLarge(plan: LoopPlan, tolerance: Double)
    /// A fixed duration needs more frames than a loop may have.
    case tooManyFrames(frames: Int, limit: Int)
    /// Width × height × frames is beyond what one render may draw.
    case tooManyPixels(width: Int, height: Int, frames: Int, limit: Int)

    public var description: String {
        switch self {
        case let .noSeamlessLoop(nearest, minFrames, maxFrames, tolerance, fitsAt):
            let advice = fitsAt.map { n in
                "set \"maxFrames\": \(n) (\(n) frames at \(NumberText.decimal(nearest.fps, places: 2)) fps close a \(NumberText.decimal(Double(n) / nearest.fps, places: 2)) s loop), raise speedTolerance, or set a duration"
            } ?? "raise speedTolerance, lower fps, or set a duration"
            return "no loop of \(minFrames)…\(maxFrames) frames closes with speed changes within \(LoopPlanner.percent(tolerance)); nearest: \(nearest.frameCount) frames with \(LoopPlanner.describeChanges(nearest)); \(advice)"
        case let .speedChangeTooLarge(plan, tolerance):
            return "duration \(NumberText.decimal(plan.duration, places: 2)) s moves speeds beyond speedTolerance \(LoopPlanner.percent(tolerance)): \(LoopPlanner.describeChanges(plan))"
        case let .tooManyFrames(frames, limit):
            return "duration × fps gives \(frames) frames; a loop has at most \(limit) (shorten duration or lower fps)"
        case let .tooManyPixels(width, height, frames, limit):
            return "\(width)×\(height) pixels × \(frames) frames is \(width * height * frames / 1_000_000) megapixels; one render draws at most \(limit / 1_000_000) (lower size, scale, fps or duration)"
        }
    }
}

/// Picks the frame count so that every layer travels a whole number of wavelengths per loop.
public enum LoopPlanner {
    /// Loop length in seconds when only the level moves and `duration` is "auto".
    public static let stillLoopSeconds = 2.0

    /// Relative error below which a speed counts as unchanged.
    static let exactness = 1e-9

    /// Plans the loop for `config`. With `strict`, a fixed duration that moves a speed beyond the
    /// tolerance is an error instead of a warning.
    public static func plan(_ config: WaveConfig, strict: Bool = false) throws(PlanError) -> LoopPlan {
        let plan = try loop(config, strict: strict)
        let pixels = config.width * config.height * plan.frameCount
        guard pixels <= maximumPixelFrames else {
            throw .tooManyPixels(width: config.width, height: config.height, frames: plan.frameCount, limit: maximumPixelFrames)
        }
        return plan
    }

    /// The most pixels (width × height × frames) one render may draw: about half a minute of work.
    public static let maximumPixelFrames = 4_000_000_000

    static func loop(_ config: WaveConfig, strict: Bool) throws(PlanError) -> LoopPlan {
        let speeds = config.layers.map(\.speed)
        switch config.duration {
        case let .seconds(seconds):
            let n = max(1, Int(saturating: (seconds * config.fps).rounded()))
            guard n <= WaveConfig.maximumFrames else {
                throw .tooManyFrames(frames: n, limit: WaveConfig.maximumFrames)
            }
            var plan = make(frames: n, speeds: speeds, fps: config.fps, rule: .fixedDuration)
            if plan.maximumChange > config.speedTolerance + exactness {
                if strict { throw .speedChangeTooLarge(plan: plan, tolerance: config.speedTolerance) }
                plan.warnings.append(PlanError.speedChangeTooLarge(plan: plan, tolerance: config.speedTolerance).description)
            }
            return plan
        case .auto where speeds.allSatisfy({ $0 == 0 }) && config.level != .still(config.level.nominal):
            // Nothing drifts, only the level moves: give it a loop of a comfortable length.
            let n = min(config.maxFrames, max(config.minFrames, Int(saturating: (stillLoopSeconds * config.fps).rounded())))
            return make(frames: n, speeds: speeds, fps: config.fps, rule: .levelOnly)
        case .auto:
            var tolerant: Int?
            var exact: Int?
            var nearest: (Int, Double)?
            for n in config.minFrames...config.maxFrames {
                let change = maximumChange(frames: n, speeds: speeds, fps: config.fps)
                if nearest == nil || change < nearest!.1 - exactness { nearest = (n, change) }
                if tolerant == nil, change <= config.speedTolerance + exactness { tolerant = n }
                if change <= exactness { exact = n; break }
                if let t = tolerant, n >= 2 * t { break }
            }
            guard let t = tolerant else {
                let best = make(frames: nearest!.0, speeds: speeds, fps: config.fps, rule: .nudged)
                let fits = config.maxFrames < WaveConfig.maximumFrames ? ((config.maxFrames + 1)...WaveConfig.maximumFrames).first {
                    maximumChange(frames: $0, speeds: speeds, fps: config.fps) <= config.speedTolerance + exactness
                } : nil
                throw .noSeamlessLoop(nearest: best, minFrames: config.minFrames, maxFrames: config.maxFrames,
                                      tolerance: config.speedTolerance, fitsAt: fits)
            }
            if let e = exact, e <= 2 * t { return make(frames: e, speeds: speeds, fps: config.fps, rule: .exact) }
            return make(frames: t, speeds: speeds, fps: config.fps, rule: .nudged)
        }
    }

    /// Whole cycles a layer of `speed` travels in `frames` frames, rounded to the nearest.
    static func cycles(speed: Double, frames: Int, fps: Double) -> Int {
        Int(saturating: (speed * Double(frames) / fps).rounded())
    }

    static func change(speed: Double, frames: Int, fps: Double) -> Double {
        guard speed != 0 else { return 0 }
        let exactCycles = speed * Double(frames) / fps
        return abs(exactCycles.rounded() - exactCycles) / abs(exactCycles)
    }

    static func maximumChange(frames: Int, speeds: [Double], fps: Double) -> Double {
        speeds.reduce(0) { max($0, change(speed: $1, frames: frames, fps: fps)) }
    }

    static func make(frames: Int, speeds: [Double], fps: Double, rule: LoopPlan.Rule) -> LoopPlan {
        let duration = Double(frames) / fps
        let layers = speeds.map { s -> LoopPlan.LayerSpeed in
            let c = cycles(speed: s, frames: frames, fps: fps)
            return LoopPlan.LayerSpeed(requested: s, cycles: c, used: Double(c) / duration,
                                       change: change(speed: s, frames: frames, fps: fps))
        }
        return LoopPlan(frameCount: frames, fps: fps, duration: duration, layers: layers, rule: rule, warnings: [])
    }

    static func percent(_ v: Double) -> String {
        let p = v * 100
        return (p == p.rounded() ? String(Int(p)) : NumberText.fixed(p, places: 1)) + " %"
    }

    static func describeChanges(_ plan: LoopPlan) -> String {
        let moved = plan.layers.enumerated().filter { $0.element.change > exactness }
        if moved.isEmpty { return "no speed change" }
        return moved.map { i, l in
            let sign = l.used >= l.requested ? "+" : "−"
            return "layer \(i) speed \(NumberText.decimal(l.requested, places: 3)) → \(NumberText.decimal(l.used, places: 3)) (\(sign)\(percent(l.change)))"
        }.joined(separator: ", ")
    }
}
