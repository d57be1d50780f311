import WavePlatform
import WaveAPNG
import WaveGIF
import WaveKit
import WaveText
import WaveWebP
import WaveZip

/// Digests that tell a build whether an output would change without rendering it.
///
/// The input digest covers everything that determines an output's bytes: wavegen's output version
/// and the encoding libraries' versions, the format, the merged preset document (after `extends`
/// and every override; so scale, level and variant too), the rider's decoded pixels and the label
/// font's bytes. Equal digests mean equal bytes.
public enum OutputDigest {
    /// Bumped whenever a change to wavegen changes the bytes it writes for the same inputs (the
    /// pinned digests in PinnedOutputTests change with it), so locks made before re-render.
    public static let outputVersion = 8

    /// The encoder identity folded into every input digest.
    public static var encoderIdentity: String {
        "wavegen-output \(outputVersion); giflib \(GIFEncoder.libraryVersion); libwebp \(WebPAnimationEncoder.libraryVersion)"
    }

    /// Every library whose bytes reach a `format` output besides the label's (FreeType, folded into
    /// the font part): APNG's deflate engines, and libdeflate in the vector writers' embedded
    /// rider PNG, and libzip in the dotLottie archive.
    public static func encoderIdentity(for format: OutputFormat) -> String {
        switch format {
        case .apng: encoderIdentity + "; libdeflate \(APNGEncoder.libraryVersion); zopfli \(APNGEncoder.zopfliIdentity)"
        case .svg, .lottie: encoderIdentity + "; libdeflate \(APNGEncoder.libraryVersion)"
        case .dotlottie: encoderIdentity + "; libdeflate \(APNGEncoder.libraryVersion); libzip \(ZipArchive.libraryVersion)"
        case .gif, .webp: encoderIdentity
        }
    }

    /// An output's input digest and the digests of its parts, so that a build can say which
    /// input changed.
    public struct Inputs: Sendable, Equatable {
        /// The digest of everything below (lowercase hex SHA-256).
        public var combined: String
        /// A short digest (16 hex digits) per part, by `Part` raw value.
        public var parts: [String: String]
    }

    /// The inputs of an output, in the words a stale output's message uses.
    public enum Part: String, CaseIterable, Sendable {
        case wavegen, preset, budget, rider, font

        /// What changed, when this part's digest differs.
        public var changed: String {
            switch self {
            case .wavegen: "wavegen's output version or a library that writes its bytes changed"
            case .preset: "the preset changed (its file, a parent it extends, or an override: --set, the job's set, variant, scale or level)"
            case .budget: "its size budget changed"
            case .rider: "the rider image changed"
            case .font: "the label font or FreeType changed"
            }
        }
    }

    /// The input digest of `loaded` written as `format` (lowercase hex SHA-256), fitted to `fitTo`
    /// bytes when given (`SizeFit`). `fonts` caches font digests across outputs.
    public static func input(_ loaded: BuildPlan.Loaded, format: OutputFormat, live: Bool = false, fitTo: Int? = nil, fonts: FontDigests) throws(WaveError) -> String {
        try inputs(loaded, format: format, live: live, fitTo: fitTo, fonts: fonts).combined
    }

    /// `input` with the digest of each part beside it; `live` for a live SVG.
    public static func inputs(_ loaded: BuildPlan.Loaded, format: OutputFormat, live: Bool = false, fitTo: Int? = nil, fonts: FontDigests) throws(WaveError) -> Inputs {
        var h = SHA256()
        var partHashes: [Part: SHA256] = [:]
        func field(_ part: Part, _ name: String, _ text: String) {
            let bytes = Array("\(name) \(text.utf8.count)\n".utf8) + Array(text.utf8)
            h.update(bytes)
            partHashes[part, default: SHA256()].update(bytes)
        }
        field(.wavegen, "encoder", encoderIdentity(for: format))
        field(.preset, "format", format.rawValue)
        if live { field(.preset, "live", "true") }
        if let fitTo { field(.budget, "fit", String(fitTo)) }
        field(.preset, "preset", relevantDocument(loaded.document, for: format).canonicalText)
        if let image = loaded.config.rider?.image {
            field(.rider, "rider", "\(image.width)x\(image.height)")
            h.update(image.rgba)
            partHashes[.rider, default: SHA256()].update(image.rgba)
        }
        if let label = loaded.config.label {
            var text = "freetype \(TextRasterizer.libraryVersion)"
            if label.fonts.isEmpty { text += "; default " + fonts.defaultDigest }
            for font in label.fonts {
                switch font.source {
                case let .file(path): text += "; file " + (try fonts.digest(path, config: loaded.config))
                case let .embedded(bytes): text += "; embedded " + SHA256.hex(bytes)
                }
            }
            field(.font, "font", text)
        }
        var parts: [String: String] = [:]
        for (part, hash) in partHashes {
            parts[part.rawValue] = String(hex(hash.finalize()).prefix(16))
        }
        return Inputs(combined: hex(h.finalize()), parts: parts)
    }

    /// What changed between two inputs' parts, in `Part` order; empty when either has none recorded.
    public static func changes(from old: [String: String], to new: [String: String]) -> [Part] {
        guard !old.isEmpty, !new.isEmpty else { return [] }
        return Part.allCases.filter { old[$0.rawValue] != new[$0.rawValue] }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The document without the other formats' own settings (`gif` for a WebP, `webp` for a GIF),
    /// which cannot change this format's bytes.
    static func relevantDocument(_ document: JSONNode, for format: OutputFormat) -> JSONNode {
        let otherFormats = Set(OutputFormat.allCases.filter { $0 != format }.compactMap(\.settingsKey))
        guard case let .object(members) = document.value else { return document }
        return JSONNode(.object(members.filter { !otherFormats.contains($0.key) }))
    }

    /// The lowercase hex SHA-256 of a file's bytes.
    public static func file(_ bytes: [UInt8]) -> String { SHA256.hex(bytes) }
}

/// Font file digests, computed once per path for a whole build (thread-safe).
public final class FontDigests: @unchecked Sendable {
    private let digests = SharedDictionary<String, String>()

    public init() {}

    /// The digest of the built-in default font.
    let defaultDigest = SHA256.hex(LabelFont.defaultFontBytes)

    func digest(_ path: String, config: WaveConfig) throws(WaveError) -> String {
        if let d = digests[path] { return d }
        guard let data = FileSystem.contents(of: path) else {
            throw WaveError(config, "\(path): cannot be read", keyPath: "label.font", kind: .missingInput)
        }
        let d = SHA256.hex(data)
        digests[path] = d
        return d
    }
}
