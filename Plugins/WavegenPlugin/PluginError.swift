import Foundation

/// A problem the plugin finds while planning, printed as wavegen prints its own:
/// `FILE: error: at KEY: message`.
struct PluginError: Error, CustomStringConvertible {
    let file: URL
    let key: String?
    let message: String

    init(file: URL, key: String? = nil, message: String) {
        self.file = file
        self.key = key
        self.message = message
    }

    var description: String {
        let place = key.map { "at \($0): " } ?? ""
        return "\(file.path(percentEncoded: false)): error: \(place)\(message)"
    }
}
