import WavePlatform
import WaveBuild

/// The statuses the preview server answers with.
public enum HTTPStatus: Int, Sendable {
    case ok = 200
    case badRequest = 400
    case forbidden = 403
    case notFound = 404
    case methodNotAllowed = 405
    case requestTimeout = 408
    case contentTooLarge = 413
    case headersTooLarge = 431
    case notImplemented = 501
    case serviceUnavailable = 503
    case versionNotSupported = 505

    public var reason: String {
        switch self {
        case .ok: return "OK"
        case .badRequest: return "Bad Request"
        case .forbidden: return "Forbidden"
        case .notFound: return "Not Found"
        case .methodNotAllowed: return "Method Not Allowed"
        case .requestTimeout: return "Request Timeout"
        case .contentTooLarge: return "Content Too Large"
        case .headersTooLarge: return "Request Header Fields Too Large"
        case .notImplemented: return "Not Implemented"
        case .serviceUnavailable: return "Service Unavailable"
        case .versionNotSupported: return "HTTP Version Not Supported"
        }
    }
}

/// A complete response; every one closes its connection (`Connection: close`), except the event
/// stream, whose head is written alone (`head(streaming:)`).
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(_ status: HTTPStatus, contentType: String, body: [UInt8], headers: [(String, String)] = []) {
        self.status = status
        self.headers = [("Content-Type", contentType)] + headers
        self.body = body
    }

    /// A short plain-text answer (errors, 404).
    public static func text(_ status: HTTPStatus, _ message: String, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status, contentType: "text/plain; charset=utf-8", body: Array("\(status.rawValue) \(status.reason): \(message)\n".utf8),
                     headers: headers + [("Cache-Control", "no-store")])
    }

    /// Headers every answer carries: nothing is sniffed, framed or sent elsewhere.
    public static let common: [(String, String)] = [
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
    ]

    /// The status line and headers. With `streaming`, no Content-Length: the body runs until the
    /// connection closes.
    public func head(streaming: Bool = false) -> [UInt8] {
        var text = "HTTP/1.1 \(status.rawValue) \(status.reason)\r\n"
        text += "Date: \(HTTPResponse.date(unixSeconds: Clock.unixSeconds))\r\n"
        for (name, value) in headers + HTTPResponse.common { text += "\(name): \(value)\r\n" }
        if !streaming { text += "Content-Length: \(body.count)\r\n" }
        text += "Connection: close\r\n\r\n"
        return Array(text.utf8)
    }

    /// The bytes to send; a HEAD request gets the head alone.
    public func serialized(includeBody: Bool = true) -> [UInt8] { includeBody ? head() + body : head() }

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
    public static func date(unixSeconds: Int) -> String {
        let parts = Clock.utcFields(unixSeconds)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[parts.weekday]), \(two(parts.day)) \(months[parts.month - 1]) \(parts.year) "
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) GMT"
    }
}
