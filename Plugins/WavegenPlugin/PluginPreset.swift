import Foundation
import PackagePlugin

/// A preset file `NAME.wavegen.json` in a target, and the `wavegen render` commands that write
/// its outputs into the target's resources.
///
/// Which files: the preset's `"_plugin"` key, which wavegen itself ignores (keys starting with
/// `_` are comments), e.g. `"_plugin": { "formats": ["gif", "webp"], "scales": [1, 2, 3] }`.
/// Without it: GIF, SVG and Lottie at scale 1. A raster format writes one file per scale
/// (`NAME.gif`, `NAME@2x.gif`, …); a vector format (SVG, Lottie) writes one file whatever the
/// scales, as its drawing scales by itself.
struct PluginPreset {
    static let suffix = ".wavegen.json"
    static let defaultFormats = ["gif", "svg", "lottie"]
    /// Each format wavegen writes, with the file extension it takes.
    static let extensions: KeyValuePairs<String, String> = [
        "gif": "gif", "webp": "webp", "apng": "png", "svg": "svg", "lottie": "json",
    ]
    static let vectorFormats: Set<String> = ["svg", "lottie"]

    let file: URL
    /// The file name without `.wavegen.json`: the outputs' base name.
    let name: String
    let formats: [String]
    /// Output scales (1 = the preset's own size).
    let scales: [Double]
    /// Files the output depends on besides the preset: parents it extends by path, rider images
    /// and label fonts named by path.
    let referencedFiles: [URL]

    init(file: URL) throws {
        self.file = file
        name = String(file.lastPathComponent.dropLast(Self.suffix.count))
        // A file that is not JSON gets the defaults here; its render then says where it is wrong.
        let object = JSONValue.read(file)?.object ?? [:]
        let options = object["_plugin"]
        if let options, options.object == nil {
            throw PluginError(file: file, key: "_plugin", message: "must be an object with \"formats\" and/or \"scales\"")
        }
        let settings = options?.object ?? [:]
        for key in settings.keys.sorted() where key != "formats" && key != "scales" && !key.hasPrefix("_") {
            throw PluginError(file: file, key: "_plugin.\(key)", message: "unknown key; expected \"formats\" or \"scales\"")
        }
        formats = try Self.formats(settings["formats"], file: file)
        scales = try Self.scales(settings["scales"], file: file)
        referencedFiles = PresetReferences.files(of: file)
    }

    private static func formats(_ value: JSONValue?, file: URL) throws -> [String] {
        guard let value else { return defaultFormats }
        let known = extensions.map(\.key)
        guard let items = value.array, !items.isEmpty, case let list = items.compactMap(\.string), list.count == items.count else {
            throw PluginError(file: file, key: "_plugin.formats", message: "must be a non-empty array of format names (\(known.joined(separator: ", ")))")
        }
        for (index, format) in list.enumerated() {
            guard known.contains(format) else {
                throw PluginError(file: file, key: "_plugin.formats[\(index)]", message: "unknown format \"\(format)\"; expected one of \(known.joined(separator: ", "))")
            }
            if list[..<index].contains(format) {
                throw PluginError(file: file, key: "_plugin.formats[\(index)]", message: "\"\(format)\" is listed twice")
            }
        }
        return list
    }

    private static func scales(_ value: JSONValue?, file: URL) throws -> [Double] {
        guard let value else { return [1] }
        guard let list = value.array, !list.isEmpty else {
            throw PluginError(file: file, key: "_plugin.scales", message: "must be a non-empty array of numbers, e.g. [1, 2, 3]")
        }
        var scales: [Double] = []
        for (index, item) in list.enumerated() {
            guard let scale = item.number, scale > 0, scale <= 16 else {
                throw PluginError(file: file, key: "_plugin.scales[\(index)]", message: "must be a number above 0 and at most 16")
            }
            if scales.contains(scale) {
                throw PluginError(file: file, key: "_plugin.scales[\(index)]", message: "\(number(scale)) is listed twice")
            }
            scales.append(scale)
        }
        return scales
    }

    /// One `wavegen render` per output file, so that each runs on its own and a change re-renders
    /// only this preset's files.
    func commands(wavegen: URL, outputFolder: URL) -> [PlannedCommand] {
        var commands: [PlannedCommand] = []
        for format in formats {
            let fileExtension = Self.extensions.first { $0.key == format }!.value
            let outputScales: [Double?] = Self.vectorFormats.contains(format) ? [nil] : scales.map { $0 }
            for scale in outputScales {
                let output = outputFolder.appending(path: "\(name)\(Self.scaleSuffix(scale)).\(fileExtension)")
                var arguments = ["render", file.path(percentEncoded: false), "--output", output.path(percentEncoded: false),
                                 "--format", format, "--quiet"]
                if let scale, scale != 1 {
                    arguments += ["--scale", Self.number(scale)]
                }
                commands.append(PlannedCommand(
                    displayName: "wavegen: rendering \(output.lastPathComponent) from \(file.lastPathComponent)",
                    executable: wavegen,
                    arguments: arguments,
                    inputFiles: [file] + referencedFiles,
                    outputFiles: [output],
                    source: file))
            }
        }
        return commands
    }

    /// "" at scale 1 (and for vector formats), "@2x", "@1.5x" otherwise, as a manifest's `{scale}`.
    static func scaleSuffix(_ scale: Double?) -> String {
        guard let scale, scale != 1 else { return "" }
        return "@\(number(scale))x"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
