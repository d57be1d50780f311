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

/// The file formats wavegen writes.
public enum OutputFormat: String, Sendable, CaseIterable {
    case gif
    case webp
    /// Animated PNG: indexed colour with every entry's alpha.
    case apng
    /// Animated SVG: vector paths moved by CSS keyframes, no raster frames.
    case svg
    /// Lottie (Bodymovin JSON): vector shape layers moved by keyframes, no raster frames.
    case lottie
    /// dotLottie 2 (a ZIP archive): the Lottie, its light and dark themes and the rider image.
    case dotlottie

    public var name: String {
        switch self {
        case .gif: return "GIF"
        case .webp: return "WebP"
        case .apng: return "APNG"
        case .svg: return "SVG"
        case .lottie: return "Lottie"
        case .dotlottie: return "dotLottie"
        }
    }

    /// The extension of the format's files (without the dot): an APNG is `.png`, a Lottie file
    /// `.json`, a dotLottie `.lottie`.
    public var fileExtension: String {
        switch self {
        case .gif, .webp, .svg: return rawValue
        case .apng: return "png"
        case .lottie: return "json"
        case .dotlottie: return "lottie"
        }
    }

    /// The format a file name extension names (any case): its own extension, or its raw value
    /// where that differs (`.png` and `.apng` are APNG).
    public init?(fileExtension ext: String) {
        let ext = ext.lowercased()
        guard let format = OutputFormat.allCases.first(where: { $0.fileExtension == ext })
            ?? OutputFormat.allCases.first(where: { $0.rawValue == ext && $0 != .lottie && $0 != .dotlottie }) else { return nil }
        self = format
    }

    /// The known extensions, for messages: ".gif, .webp, .png (or .apng), .svg, .json or .lottie".
    public static var extensionList: String {
        let names = allCases.map { f in
            "." + f.fileExtension + (f.rawValue != f.fileExtension && OutputFormat(fileExtension: f.rawValue) == f ? " (or .\(f.rawValue))" : "")
        }
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// The preset key holding this format's own settings (`"gif"`), nil when it has none.
    public var settingsKey: String? {
        switch self {
        case .gif: return "gif"
        case .webp: return "webp"
        case .apng: return "apng"
        case .svg, .lottie, .dotlottie: return nil
        }
    }

    /// Whether the format describes the motion as vectors and keyframes (no raster frames).
    public var isVector: Bool {
        switch self {
        case .gif, .webp, .apng: return false
        case .svg, .lottie, .dotlottie: return true
        }
    }

    /// Whether the format's files are text (safe to print on a terminal).
    public var isText: Bool {
        switch self {
        case .gif, .webp, .apng, .dotlottie: return false
        case .svg, .lottie: return true
        }
    }

    /// The media type of the format's files.
    public var mimeType: String {
        switch self {
        case .gif: return "image/gif"
        case .webp: return "image/webp"
        case .apng: return "image/png"
        case .svg: return "image/svg+xml"
        case .lottie: return "application/json"
        case .dotlottie: return "application/zip+dotlottie"
        }
    }

    /// Delay units per second: GIF counts centiseconds; WebP, APNG, SVG and Lottie (whose keyframes
    /// sit at the planned frames' times) milliseconds.
    var unitsPerSecond: Double {
        switch self {
        case .gif: return 100
        case .webp, .apng, .svg, .lottie, .dotlottie: return 1000
        }
    }

    var unitName: String {
        switch self {
        case .gif: return "cs"
        case .webp, .apng, .svg, .lottie, .dotlottie: return "ms"
        }
    }

    /// The shortest delay players honour, in `unitName` (shorter GIF delays are slowed to 100 ms by
    /// browsers); CSS animations and Lottie players have no shortest step.
    var minimumDelay: Int {
        switch self {
        case .gif: return 2
        case .webp, .apng: return 11
        case .svg, .lottie, .dotlottie: return 0
        }
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
