internal import CGIF

/// A failure reported by giflib, or a frame the encoder cannot accept.
public struct GIFError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was being done ("writing the screen descriptor").
    public var operation: String
    /// giflib's own message, or the encoder's.
    public var message: String

    public init(operation: String, message: String) {
        self.operation = operation
        self.message = message
    }

    init(operation: String, code: Int32) {
        let text = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
        self.init(operation: operation, message: text)
    }

    public var description: String { "GIF: \(operation): \(message)" }
}
