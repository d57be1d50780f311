import Foundation

/// What a manifest will write, asked of wavegen at planning time: the build system needs every
/// output's path before anything runs, and `wavegen build MANIFEST --list` expands the jobs
/// exactly as the build will. The `wavegen` executable is built for the host before plugins are
/// applied (SwiftPM builds a plugin's tools first), so it can run here.
enum PlannedOutputs {
    /// The outputs of `manifest`, as paths relative to its folder. wavegen's standard error goes
    /// to `errorFile`, so that neither stream can fill a pipe and stall; when it fails, its
    /// problem lines (with file, line and column) are thrown.
    static func list(manifest: URL, wavegen: URL, errorFile: URL) throws -> [String] {
        let folderPrefix = manifest.deletingLastPathComponent().path.withTrailingSlash
        let arguments = ["build", manifest.path, "--list"]
        let listing = try run(wavegen, arguments, errorFile: errorFile, manifest: manifest)
        return try listing.split(separator: "\n").map { line in
            // Each line is `PATH  (jobs[N] (NAME) FORMAT …)`, PATH under the manifest's folder.
            guard let end = line.range(of: "  ("), line[..<end.lowerBound].hasPrefix(folderPrefix) else {
                throw PluginError(file: manifest, message: "unexpected line from 'wavegen build --list': \(line)")
            }
            return String(line[..<end.lowerBound].dropFirst(folderPrefix.count))
        }
    }

    private static func run(_ wavegen: URL, _ arguments: [String], errorFile: URL, manifest: URL) throws -> String {
        let files = FileManager.default
        try files.createDirectory(at: errorFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard files.createFile(atPath: errorFile.path, contents: nil) else {
            throw PluginError(file: manifest, message: "cannot create \(errorFile.path)")
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
            throw PluginError(file: manifest, message: "'wavegen \(arguments.joined(separator: " "))' exited with \(process.terminationStatus)\(problems.isEmpty ? "" : ":\n" + problems)")
        }
        return String(decoding: outputData, as: UTF8.self)
    }
}

private extension String {
    var withTrailingSlash: String { hasSuffix("/") ? self : self + "/" }
}
