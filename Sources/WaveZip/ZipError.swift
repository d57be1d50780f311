/// A failure reported by libzip, with the library's own message.
public struct ZipError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was being done: "open", "add manifest.json", "close", ….
    public var operation: String
    public var message: String

    public init(operation: String, message: String) {
        self.operation = operation
        self.message = message
    }

    public var description: String { "zip: \(operation): \(message)" }
}
