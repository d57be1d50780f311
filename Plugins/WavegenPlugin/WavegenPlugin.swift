import Foundation
import PackagePlugin

/// The build-tool plugin: a target that lists it gets the loaders its folder describes rendered
/// into its resources at build time, by the `wavegen` executable built from this package.
///
/// - Every `NAME.wavegen.json` in the target is a preset: `wavegen render` writes `NAME.gif`,
///   `NAME.svg` and `NAME.json` (Lottie), or the formats and scales of its `"_plugin"` key
///   (`PluginPreset`).
/// - The `wavegen.json` in the target (one at most) is a build manifest: `wavegen build` writes every output it
///   plans (`PluginManifest`).
///
/// Each output is declared with its inputs (the preset, the parents it extends, its rider image
/// and label font; the manifest and the presets it names), so the build system runs a command
/// only when one of them, or the `wavegen` executable, changed. See docs/swiftpm-plugin.md.
@main
struct WavegenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let wavegen = try context.tool(named: "wavegen").url
        let outputFolder = context.pluginWorkDirectoryURL.appending(path: "Resources", directoryHint: .isDirectory)
        let files = target.sourceFiles.map(\.url).sorted { $0.path < $1.path }
        var commands: [PlannedCommand] = []
        for file in files {
            let fileName = file.lastPathComponent
            if fileName.hasSuffix(PluginPreset.suffix) {
                let preset = try PluginPreset(file: file)
                commands += preset.commands(wavegen: wavegen, outputFolder: outputFolder)
            } else if fileName == PluginManifest.fileName {
                if let first = files.first(where: { $0.lastPathComponent == PluginManifest.fileName }), first != file {
                    throw PluginError(file: file, message: "a target holds one build manifest, and \(first.path(percentEncoded: false)) is its manifest already")
                }
                // Every file of the target but its Swift code: the presets, images and fonts the
                // manifest names are among them (wavegen's lock then skips the unchanged outputs).
                let inputs = files.filter { $0.pathExtension != "swift" }
                commands.append(try PluginManifest(file: file).command(
                    wavegen: wavegen,
                    workFolder: context.pluginWorkDirectoryURL.appending(path: "Manifest", directoryHint: .isDirectory),
                    inputFiles: inputs))
            }
        }
        try PlannedCommand.checkNames(commands)
        return commands.map(\.command)
    }
}
