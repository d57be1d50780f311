import Foundation

/// A preset file `NAME.wavegen.json` in a target, and the job that renders it in the manifest
/// the plugin writes for the target's presets (`PresetManifest`).
///
/// Which files: the preset's `"_plugin"` key, which wavegen itself ignores (keys starting with
/// `_` are comments), e.g. `"_plugin": { "formats": ["gif", "webp"], "scales": [1, 2, 3] }`.
/// Without it: GIF, SVG and Lottie at the preset's own scale. The outputs are named as a
/// manifest's `NAME{scale}.{format}` names them: `NAME.gif`, `NAME@2x.gif`, `NAME.svg`,
/// `NAME.json` (Lottie); SVG and Lottie are written once whatever the scales.
struct PluginPreset {
    static let suffix = ".wavegen.json"
    static let defaultFormats = ["gif", "svg", "lottie"]
    static let formatNames = ["gif", "webp", "apng", "svg", "lottie"]

    let file: URL
    /// The file name without `.wavegen.json`: the outputs' base name.
    let name: String
    let formats: [String]
    /// Output scales (1 = the preset's size), or nil for the preset's own `scale`.
    let scales: [Double]?
    /// Files the outputs depend on besides the preset: parents it extends by path, rider images
    /// and label fonts named by path.
    let referencedFiles: [URL]

    init(file: URL) throws {
        self.file = file
        name = String(file.lastPathComponent.dropLast(Self.suffix.count))
        if name.isEmpty || name.hasPrefix(".") || name.contains(where: { "{}\\".contains($0) }) {
            throw PluginError(file: file, message: "the name before .wavegen.json names the outputs: it may not be empty, start with '.' or hold '{', '}' or '\\'")
        }
        // A file that is not JSON gets the defaults here; wavegen then says where it is wrong.
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
        let known = formatNames.joined(separator: ", ")
        guard let items = value.array, !items.isEmpty, case let list = items.compactMap(\.string), list.count == items.count else {
            throw PluginError(file: file, key: "_plugin.formats", message: "must be a non-empty array of format names (\(known))")
        }
        for (index, format) in list.enumerated() {
            guard formatNames.contains(format) else {
                throw PluginError(file: file, key: "_plugin.formats[\(index)]", message: "unknown format \"\(format)\"; expected one of \(known)")
            }
            if list[..<index].contains(format) {
                throw PluginError(file: file, key: "_plugin.formats[\(index)]", message: "\"\(format)\" is listed twice")
            }
        }
        return list
    }

    private static func scales(_ value: JSONValue?, file: URL) throws -> [Double]? {
        guard let value else { return nil }
        guard let list = value.array, !list.isEmpty else {
            throw PluginError(file: file, key: "_plugin.scales", message: "must be a non-empty array of numbers, e.g. [1, 2, 3]")
        }
        var scales: [Double] = []
        for (index, item) in list.enumerated() {
            guard let scale = item.number, scale > 0, scale <= 16 else {
                throw PluginError(file: file, key: "_plugin.scales[\(index)]", message: "must be a number above 0 and at most 16")
            }
            if scales.contains(scale) {
                throw PluginError(file: file, key: "_plugin.scales[\(index)]", message: "\(scale) is listed twice")
            }
            scales.append(scale)
        }
        return scales
    }

    /// This preset's job in the plugin's manifest.
    var job: [String: Any] {
        var job: [String: Any] = [
            "name": name,
            "preset": file.path,
            // In a folder of their own, so no output can be the manifest or its lock.
            "output": "\(PresetManifest.outputFolder)/\(name){scale}.{format}",
            "formats": formats,
        ]
        if let scales {
            job["scales"] = scales
        }
        return job
    }
}
