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
