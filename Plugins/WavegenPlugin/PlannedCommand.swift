import Foundation
import PackagePlugin

/// One command the plugin asks the build system to run, and whose outputs it writes.
struct PlannedCommand {
    let displayName: String
    let executable: URL
    let arguments: [String]
    let inputFiles: [URL]
    let outputFiles: [URL]
    /// Whose outputs these are, for messages: the manifest's path, or the presets.
    let source: String

    var command: Command {
        .buildCommand(displayName: displayName, executable: executable, arguments: arguments,
                      inputFiles: inputFiles, outputFiles: outputFiles)
    }

    /// SwiftPM copies generated resources into the bundle by file name alone (`progress/a.gif`
    /// becomes `a.gif`), so two outputs with one name would overwrite each other: refused here.
    /// Paths in messages are given relative to `workFolder`, the plugin's work directory.
    static func checkNames(_ commands: [PlannedCommand], workFolder: URL) throws {
        let folder = workFolder.path
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        func shown(_ output: URL) -> String {
            let path = output.path
            return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
        }
        var owners: [String: (source: String, output: URL)] = [:]
        for planned in commands {
            for output in planned.outputFiles {
                let name = output.lastPathComponent
                if let owner = owners[name] {
                    throw PluginError(message: "\(name) would be in the bundle twice: \(shown(owner.output)) of \(owner.source) and \(shown(output)) of \(planned.source) (in \(prefix)); SwiftPM puts generated resources in the bundle by file name alone, so give them different names")
                }
                owners[name] = (planned.source, output)
            }
        }
    }
}
