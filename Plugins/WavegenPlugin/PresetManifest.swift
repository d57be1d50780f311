import Foundation

/// The build manifest the plugin writes for a target's presets: one job per `*.wavegen.json`,
/// outputs in a folder beside it in the plugin's work directory, so that one `wavegen build` renders them and
/// its `wavegen.lock` there spares every output whose inputs did not change when the command runs
/// again (a preset touched but not changed, another preset edited, the tool relinked).
enum PresetManifest {
    /// The folder the outputs go to, under the manifest's.
    static let outputFolder = "out"

    static func command(for presets: [PluginPreset], wavegen: URL, workFolder: URL) throws -> PlannedCommand {
        let manifest = workFolder.appendingPathComponent("wavegen.json")
        let document: [String: Any] = [
            "_comment": "Written by the wavegen build-tool plugin from the target's *.wavegen.json presets.",
            "jobs": presets.map(\.job),
        ]
        let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        try FileManager.default.createDirectory(at: workFolder, withIntermediateDirectories: true)
        // Written only when it changes, so its date says when the presets' set or options changed.
        if (try? Data(contentsOf: manifest)) != data {
            try data.write(to: manifest, options: .atomic)
        }
        let outputs = try PlannedOutputs.list(manifest: manifest, wavegen: wavegen,
                                              errorFile: workFolder.deletingLastPathComponent().appendingPathComponent("presets-list-errors.txt"))
        let names = presets.map { $0.file.lastPathComponent }
        return PlannedCommand(
            displayName: "wavegen: rendering \(names.joined(separator: ", ")) (\(outputs.count) outputs)",
            executable: wavegen,
            // --prune: the files of outputs no longer planned (a preset, scale or job removed) are
            // wavegen's own, recorded in its lock here, and would otherwise stay with a warning.
            arguments: ["build", manifest.path, "--prune", "--quiet"],
            inputFiles: [manifest] + presets.flatMap { [$0.file] + $0.referencedFiles },
            outputFiles: outputs.map { workFolder.appendingPathComponent($0) },
            source: "the presets (\(names.joined(separator: ", ")))")
    }
}
