import Foundation
import PackagePlugin

/// One command the plugin asks the build system to run, with the file that called for it.
struct PlannedCommand {
    let displayName: String
    let executable: URL
    let arguments: [String]
    let inputFiles: [URL]
    let outputFiles: [URL]
    /// The preset or manifest whose outputs these are.
    let source: URL

    var command: Command {
        .buildCommand(displayName: displayName, executable: executable, arguments: arguments,
                      inputFiles: inputFiles, outputFiles: outputFiles)
    }

    /// SwiftPM copies generated resources into the bundle by file name alone (`progress/a.gif`
    /// becomes `a.gif`), so two outputs with one name would overwrite each other: refused here.
    static func checkNames(_ commands: [PlannedCommand]) throws {
        var owners: [String: URL] = [:]
        for planned in commands {
            for output in planned.outputFiles {
                let name = output.lastPathComponent
                if let owner = owners[name] {
                    let others = owner == planned.source ? "another of its outputs" : "an output of \(owner.path(percentEncoded: false))"
                    throw PluginError(file: planned.source, message: "writes \(name), as \(others) does; SwiftPM puts generated resources in the bundle by file name alone, so give them different names")
                }
                owners[name] = planned.source
            }
        }
    }
}
