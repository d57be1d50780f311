import Foundation

/// The build manifest `wavegen.json` of a target, and the one `wavegen build` command that writes
/// its outputs into the target's resources.
///
/// wavegen writes a manifest's outputs, and its `wavegen.lock`, under the manifest's folder; to
/// keep them out of the sources, the command builds in a folder of the plugin's work directory
/// that holds a symbolic link to each entry of the target's folder (the manifest, the presets it
/// names, their images), so the manifest's relative paths resolve as in the sources while outputs
/// and the lock land in the work directory. The lock there spares unchanged outputs when the
/// command runs again.
struct PluginManifest {
    static let fileName = "wavegen.json"

    let file: URL

    func command(wavegen: URL, workFolder: URL, inputFiles: [URL]) throws -> PlannedCommand {
        // Listed at the manifest itself, so a problem in it is reported at its own path.
        let outputs = try PlannedOutputs.list(manifest: file, wavegen: wavegen,
                                              errorFile: workFolder.deletingLastPathComponent().appendingPathComponent("manifest-list-errors.txt"))
        let outputTops = Set(outputs.compactMap { $0.split(separator: "/").first.map(String.init) })
        try linkEntries(of: file.deletingLastPathComponent(), into: workFolder, except: outputTops)
        return PlannedCommand(
            displayName: "wavegen: building \(file.lastPathComponent) (\(outputs.count) outputs)",
            executable: wavegen,
            // --prune: the files of outputs no longer planned (a preset, scale or job removed) are
            // wavegen's own, recorded in its lock here, and would otherwise stay with a warning.
            arguments: ["build", workFolder.appendingPathComponent(Self.fileName).path, "--prune", "--quiet"],
            inputFiles: inputFiles,
            outputFiles: outputs.map { workFolder.appendingPathComponent($0) },
            source: file.path)
    }

    /// Makes `workFolder` hold a symbolic link to each entry of `sourceFolder` but those named in
    /// `excluded` (the top folders and files of the outputs, which the build writes there), and
    /// besides them only what earlier builds wrote there.
    private func linkEntries(of sourceFolder: URL, into workFolder: URL, except excluded: Set<String>) throws {
        let files = FileManager.default
        try files.createDirectory(at: workFolder, withIntermediateDirectories: true)
        for name in try files.contentsOfDirectory(atPath: workFolder.path) {
            let entry = workFolder.appendingPathComponent(name)
            if (try? files.destinationOfSymbolicLink(atPath: entry.path)) != nil {
                try files.removeItem(at: entry)
            }
        }
        for name in try files.contentsOfDirectory(atPath: sourceFolder.path) where !excluded.contains(name) {
            let entry = workFolder.appendingPathComponent(name)
            guard !files.fileExists(atPath: entry.path) else {
                throw PluginError(file: file, message: "\(entry.path) is in the way of a link to the manifest folder's \(name)")
            }
            try files.createSymbolicLink(at: entry, withDestinationURL: sourceFolder.appendingPathComponent(name))
        }
    }
}
