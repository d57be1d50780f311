/// How one loop is laid out in time: how many frames, how long, and the speed every layer really
/// moves at so that frame N would equal frame 0.
public struct LoopPlan: Equatable, Sendable {
    /// Frames in one loop at the preset's frame rate.
    public var frameCount: Int
    /// The preset's frames per second.
    public var fps: Double
    /// Loop length in seconds (frameCount / fps).
    public var duration: Double
    public var layers: [LayerSpeed]
    /// How the frame count was chosen.
    public var rule: Rule
    /// Things a user should know (a speed moved beyond tolerance, a GIF frame rate lowered…).
    public var warnings: [String]

    public enum Rule: String, Equatable, Sendable {
        /// The shortest loop that keeps every speed exactly as written.
        case exact
        /// The shortest loop within `speedTolerance`, speeds nudged.
        case nudged
        /// `duration` was given; speeds rounded to whole cycles per loop.
        case fixedDuration
        /// No layer drifts and only the level moves: a loop of `LoopPlanner.stillLoopSeconds`.
        case levelOnly
    }

    /// One layer's requested and used speed.
    public struct LayerSpeed: Equatable, Sendable {
        /// Wavelengths per second as written in the preset.
        public var requested: Double
        /// Whole wavelengths travelled in one loop (negative drifts left).
        public var cycles: Int
        /// Wavelengths per second actually used: cycles / duration.
        public var used: Double
        /// Relative change |used − requested| / |requested|; 0 for a still layer.
        public var change: Double
    }

    /// The largest relative speed change the plan made.
    public var maximumChange: Double { layers.map(\.change).max() ?? 0 }

    /// The frame count and per-frame delays an output format plays.
    public func timing(for format: OutputFormat) -> FrameTiming {
        let unitsPerSecond = format.unitsPerSecond
        var count = frameCount
        var notes: [String] = []
        // Players treat very short delays as slow ones; render fewer frames over the same loop instead.
        if duration * unitsPerSecond / Double(count) < Double(format.minimumDelay) {
            count = max(1, Int(saturating: (duration * unitsPerSecond / Double(format.minimumDelay) + 1e-9).rounded(.down)))
            let rate = Double(count) / duration
            notes.append("\(format.name) frames are at least \(format.minimumDelay) \(format.unitName) apart: rendering \(count) frames (\(NumberText.decimal(rate, places: 2)) fps) instead of \(frameCount) over the same \(NumberText.decimal(duration, places: 2)) s loop")
        }
        let total = duration * unitsPerSecond
        let stamps = (0...count).map { Int((Double($0) * total / Double(count)).rounded()) }
        let delays = (0..<count).map { stamps[$0 + 1] - stamps[$0] }
        return FrameTiming(frameCount: count, delays: delays, unit: format.unitName, notes: notes)
    }
}

/// Frames and their delays for one format.
public struct FrameTiming: Equatable, Sendable {
    public var frameCount: Int
    /// Delay after each frame, in `unit` (differences of rounded cumulative timestamps).
    public var delays: [Int]
    /// "cs" (GIF) or "ms" (WebP, SVG).
    public var unit: String
    public var notes: [String]
}
