import Foundation

/// A problem the plugin finds while planning. SwiftPM prints it as `error: FILE: at KEY: message`
/// (`error: message` when no one file is at fault); Xcode also shows it at the file.
struct PluginError: Error, CustomStringConvertible {
    let file: URL?
    /// The message, after the key it is at (`at _plugin.formats[1]: unknown format …`).
    let message: String

    init(file: URL? = nil, key: String? = nil, message: String) {
        self.file = file
        self.message = (key.map { "at \($0): " } ?? "") + message
    }

    var description: String {
        (file.map { "\($0.path): " } ?? "") + message
    }
}
