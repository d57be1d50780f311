import Foundation
import PackagePlugin

/// A build manifest `wavegen.json` in a target, and the one `wavegen build` command that writes
/// its outputs into the target's resources.
///
/// The build system needs every output's path before anything runs, so the plugin asks the
/// `wavegen` executable (already built for the host when plugins are applied) for the plan:
/// `wavegen build MANIFEST --list`. wavegen writes a manifest's outputs, and its `wavegen.lock`,
/// under the manifest's folder; to keep them out of the sources, the command builds in a folder of
/// the plugin's work directory that holds a symbolic link to each entry of the target's folder
/// (the manifest, the presets it names, their images), so the manifest's relative paths resolve
/// as in the sources while outputs and the lock land in the work directory. The lock there spares
/// unchanged outputs when the command runs again.
struct PluginManifest {
    static let fileName = "wavegen.json"

    let file: URL

    func command(wavegen: URL, workFolder: URL, inputFiles: [URL]) throws -> PlannedCommand {
        let sourceFolder = file.deletingLastPathComponent()
        let outputs = try plannedOutputs(wavegen: wavegen, workFolder: workFolder)
        try linkEntries(of: sourceFolder, into: workFolder, except: Set(outputs.compactMap { $0.split(separator: "/").first.map(String.init) }))
        let manifest = workFolder.appending(path: Self.fileName)
        return PlannedCommand(
            displayName: "wavegen: building the \(outputs.count) outputs of \(file.lastPathComponent)",
            executable: wavegen,
            arguments: ["build", manifest.path(percentEncoded: false), "--quiet"],
            inputFiles: inputFiles,
            outputFiles: outputs.map { workFolder.appending(path: $0) },
            source: file)
    }

    /// The outputs `wavegen build --list` plans, as paths relative to the manifest's folder.
    private func plannedOutputs(wavegen: URL, workFolder: URL) throws -> [String] {
        let folderPrefix = file.deletingLastPathComponent().path(percentEncoded: false).trimmingTrailingSlash + "/"
        let listing = try Self.run(wavegen, ["build", file.path(percentEncoded: false), "--list"],
                                   errorFile: workFolder.deletingLastPathComponent().appending(path: "list-errors.txt"), file: file)
        return try listing.split(separator: "\n").map { line in
            // Each line is `PATH  (jobs[N] (NAME) FORMAT …)`, PATH under the manifest's folder.
            guard let end = line.range(of: "  ("), line[..<end.lowerBound].hasPrefix(folderPrefix) else {
                throw PluginError(file: file, message: "unexpected line from 'wavegen build --list': \(line)")
            }
            return String(line[..<end.lowerBound].dropFirst(folderPrefix.count))
        }
    }

    /// Makes `workFolder` hold a symbolic link to each entry of `sourceFolder` but those named in
    /// `excluded` (the top folders of the outputs, which the build creates there for real), and
    /// nothing else but what an earlier build wrote there.
    private func linkEntries(of sourceFolder: URL, into workFolder: URL, except excluded: Set<String>) throws {
        let files = FileManager.default
        try files.createDirectory(at: workFolder, withIntermediateDirectories: true)
        for name in try files.contentsOfDirectory(atPath: workFolder.path(percentEncoded: false)) {
            let entry = workFolder.appending(path: name)
            if (try? files.destinationOfSymbolicLink(atPath: entry.path(percentEncoded: false))) != nil {
                try files.removeItem(at: entry)
            }
        }
        for name in try files.contentsOfDirectory(atPath: sourceFolder.path(percentEncoded: false)) where !excluded.contains(name) {
            let entry = workFolder.appending(path: name)
            guard !files.fileExists(atPath: entry.path(percentEncoded: false)) else {
                throw PluginError(file: file, message: "\(entry.path(percentEncoded: false)) is in the way of a link to the manifest folder's \(name)")
            }
            try files.createSymbolicLink(at: entry, withDestinationURL: sourceFolder.appending(path: name))
        }
    }

    /// Runs wavegen and returns its standard output, or throws its problem lines when it fails.
    /// Its standard error goes to `errorFile`, so that neither stream can fill a pipe and stall it.
    private static func run(_ wavegen: URL, _ arguments: [String], errorFile: URL, file: URL) throws -> String {
        let files = FileManager.default
        guard files.createFile(atPath: errorFile.path(percentEncoded: false), contents: nil) else {
            throw PluginError(file: file, message: "cannot create \(errorFile.path(percentEncoded: false))")
        }
        let errors = try FileHandle(forWritingTo: errorFile)
        defer { try? errors.close() }
        let process = Process()
        process.executableURL = wavegen
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let problems = ((try? String(contentsOf: errorFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            throw PluginError(file: file, message: "'wavegen \(arguments.joined(separator: " "))' exited with \(process.terminationStatus)\(problems.isEmpty ? "" : ":\n" + problems)")
        }
        return String(decoding: outputData, as: UTF8.self)
    }
}

private extension String {
    var trimmingTrailingSlash: String { hasSuffix("/") ? String(dropLast()) : self }
}
