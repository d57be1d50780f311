import WaveKit
import WaveZip

/// dotLottie 2: a ZIP archive (written with libzip, deterministic) holding `manifest.json`, the
/// Lottie as `a/ID.json` (ID the preset's name, reduced to letters, digits, `-` and `_`), a theme
/// per colour scheme (`t/light.json`, and `t/dark.json` when the preset has a dark twin) whose
/// rules set every colour slot, and the rider image as `i/rider.png`. See `LottieDocument`.
public final class DotLottieWriter: AnimationWriter {
    public let frames = FrameRequest.none
    private var bytes: [UInt8] = []
    public private(set) var notes: [String] = []

    public init() {}

    /// The animation's id: `name` with every character other than ASCII letters, digits, `-` and
    /// `_` replaced by `_` ("animation" when empty).
    public static func animationID(_ name: String) -> String {
        let id = String(name.unicodeScalars.map { s -> Character in
            s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "-" || s == "_") ? Character(s) : "_"
        })
        return id.isEmpty ? "animation" : id
    }

    public func begin(_ animation: Animation, raster: FrameRenderer?) throws(WaveError) {
        let document = LottieDocument(animation, label: try VectorLabel(animation), embedsImages: false)
        let lottie = try document.jsonWithSlots()
        let id = DotLottieWriter.animationID(animation.config.name)
        let themes = document.themes.map(\.name)
        func themeList() -> JSONNode { .array(themes.map { .string($0) }) }
        let manifest = JSONNode.object([
            ("version", .string("2")), ("generator", .string("wavegen")),
            ("initial", .object([("animation", .string(id))])),
            ("animations", .array([.object([("id", .string(id)), ("themes", themeList())])])),
            ("themes", .array(themes.map { .object([("id", .string($0))]) })),
        ])
        var entries = [ZipArchive.Entry(path: "manifest.json", bytes: Array((manifest.compactText + "\n").utf8)),
                       ZipArchive.Entry(path: "a/\(id).json", bytes: Array((lottie.document.compactText + "\n").utf8))]
        for (name, colors) in document.themes {
            entries.append(ZipArchive.Entry(path: "t/\(name).json", bytes: Array((document.themeRules(colors, slots: lottie.slots).compactText + "\n").utf8)))
        }
        if let png = try document.riderImage() {
            entries.append(ZipArchive.Entry(path: "i/\(LottieDocument.riderImageName)", bytes: png))
        }
        do {
            bytes = try ZipArchive.write(entries)
        } catch {
            throw WaveError(.failure, ["dotLottie: \(error.description)"])
        }
        notes.append("dotLottie: \(animation.plan.frameCount) frames at \(NumberText.decimal(animation.plan.fps, places: 3)) fps, themes \(themes.joined(separator: ", ")), \(entries.count) entries, \(bytes.count) bytes")
    }

    public func finish() throws(WaveError) -> [UInt8] { bytes }
}
