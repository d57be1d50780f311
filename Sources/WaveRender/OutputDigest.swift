import Foundation
import WaveAPNG
import WaveGIF
import WaveKit
import WaveWebP

/// Digests that tell a build whether an output would change without rendering it.
///
/// The input digest covers everything that determines an output's bytes: wavegen's output version
/// and the encoding libraries' versions, the format, the merged preset document (after `extends`
/// and every override; so scale, level and variant too), the rider's decoded pixels and the label
/// font's bytes. Equal digests mean equal bytes.
public enum OutputDigest {
    /// Bumped whenever a change to wavegen changes the bytes it writes for the same inputs (the
    /// pinned digests in PinnedOutputTests change with it), so locks made before re-render.
    public static let outputVersion = 6

    /// The encoder identity folded into every input digest.
    public static var encoderIdentity: String {
        "wavegen-output \(outputVersion); giflib \(GIFEncoder.libraryVersion); libwebp \(WebPAnimationEncoder.libraryVersion)"
    }

    /// The input digest of `loaded` written as `format` (lowercase hex SHA-256), fitted to `fitTo`
    /// bytes when given (`SizeFit`). `fonts` caches font digests across outputs.
    public static func input(_ loaded: BuildPlan.Loaded, format: OutputFormat, fitTo: Int? = nil, fonts: FontDigests) throws(RenderError) -> String {
        var h = SHA256()
        func field(_ name: String, _ text: String) {
            h.update(Array("\(name) \(text.utf8.count)\n".utf8))
            h.update(Array(text.utf8))
        }
        field("encoder", encoderIdentity + (format == .apng ? "; libdeflate \(APNGEncoder.libraryVersion)" : ""))
        field("format", format.rawValue)
        if let fitTo { field("fit", String(fitTo)) }
        field("preset", relevantDocument(loaded.document, for: format).canonicalText)
        if let image = loaded.config.rider?.image {
            field("rider", "\(image.width)x\(image.height)")
            h.update(image.rgba)
        }
        if let label = loaded.config.label {
            field("font", try fonts.digest(label.font ?? Label.defaultFont, config: loaded.config))
        }
        return h.finalize().map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
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
    private let lock = NSLock()
    private var digests: [String: String] = [:]

    public init() {}

    func digest(_ path: String, config: WaveConfig) throws(RenderError) -> String {
        if let d = lock.withLock({ digests[path] }) { return d }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RenderError(config, "\(path): cannot be read", keyPath: "label.font", kind: .missingInput)
        }
        let d = SHA256.hex([UInt8](data))
        lock.withLock { digests[path] = d }
        return d
    }
}
