import Foundation
import PackagePlugin

/// The build-tool plugin: a target that lists it gets the loaders its folder describes rendered
/// into its resources at build time, by the `wavegen` executable built from this package.
///
/// - Every `NAME.wavegen.json` in the target is a preset: one `wavegen build` of a manifest the
///   plugin writes for them renders `NAME.gif`, `NAME.svg` and `NAME.json` (Lottie), or the
///   formats and scales of its `"_plugin"` key (`PluginPreset`, `PresetManifest`).
/// - The `wavegen.json` in the target (one at most) is a build manifest: `wavegen build` writes
///   every output it plans (`PluginManifest`).
///
/// Each command is declared with its inputs (the presets, the parents they extend, their rider
/// images and label fonts; the manifest and the target's other files) and every output, so the
/// build system runs it only when one of them, or the `wavegen` executable, changed; when it
/// runs, wavegen's lock in the work directory renders only the outputs whose inputs changed.
/// See docs/swiftpm-plugin.md.
@main
struct WavegenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        do {
            return try commands(context: context, target: target)
        } catch let error as PluginError {
            // A diagnostic with its file, so Xcode shows it at the file (SwiftPM prints only the
            // message, which names the file too); an error diagnostic fails the build.
            Diagnostics.error(error.description, file: error.file?.path, line: nil)
            return []
        }
    }

    private func commands(context: PluginContext, target: SourceModuleTarget) throws -> [Command] {
        let wavegen = try context.tool(named: "wavegen").url
        let work = context.pluginWorkDirectoryURL
        let files = target.sourceFiles.map(\.url).sorted { $0.path < $1.path }
        var commands: [PlannedCommand] = []

        let presets = try files.filter { $0.lastPathComponent.hasSuffix(PluginPreset.suffix) }.map(PluginPreset.init)
        var presetNames: [String: URL] = [:]
        for preset in presets {
            if let other = presetNames.updateValue(preset.file, forKey: preset.name) {
                throw PluginError(file: preset.file, message: "another preset, \(other.path), is named \(preset.name) too; its outputs would have the same names")
            }
        }
        if !presets.isEmpty {
            commands.append(try PresetManifest.command(for: presets, wavegen: wavegen, workFolder: work.appendingPathComponent("Presets")))
        }

        let manifests = files.filter { $0.lastPathComponent == PluginManifest.fileName }
        if manifests.count > 1 {
            throw PluginError(file: manifests[1], message: "a target holds one build manifest, and \(manifests[0].path) is its manifest already")
        }
        if let manifest = manifests.first {
            // Every file of the target but its Swift code: the presets, images and fonts the
            // manifest names are among them (wavegen's lock then skips the unchanged outputs).
            let inputs = files.filter { $0.pathExtension != "swift" }
            commands.append(try PluginManifest(file: manifest).command(wavegen: wavegen, workFolder: work.appendingPathComponent("Manifest"), inputFiles: inputs))
        }

        try PlannedCommand.checkNames(commands, workFolder: work)
        return commands.map(\.command)
    }
}
