/// A failure reported by libwebp, with the library's own message where it gives one.
public struct WebPError: Error, Equatable, Sendable, CustomStringConvertible {
    public var operation: String
    public var message: String

    public init(operation: String, message: String) {
        self.operation = operation
        self.message = message
    }

    public var description: String { "WebP: \(operation): \(message)" }
}
