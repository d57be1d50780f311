/// An HTTP/1.x request head (the preview server takes no request bodies).
public struct HTTPRequest: Equatable, Sendable {
    public var method: String
    /// The request target as sent (`/o/1f2e….gif?x`), not decoded.
    public var target: String
    /// `HTTP/1.1` or `HTTP/1.0`.
    public var version: String
    /// Header fields in order, names as sent.
    public var headers: [(name: String, value: String)]

    /// The first value of a header field (names compare without case).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every value of a header field, in order (names compare without case).
    public func values(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The target's path: up to a `?` or `#`, not decoded.
    public var path: String { String(target.prefix { $0 != "?" && $0 != "#" }) }

    public static func == (a: HTTPRequest, b: HTTPRequest) -> Bool {
        a.method == b.method && a.target == b.target && a.version == b.version
            && a.headers.map(\.name) == b.headers.map(\.name) && a.headers.map(\.value) == b.headers.map(\.value)
    }
}

/// Reads a request head from the bytes received so far, strictly (RFC 9112): a request line of
/// method, target and version, header fields, an empty line. Anything else is refused with the
/// status to answer, never guessed at.
///
/// The fields that decide which server and which bytes a request means are checked before anything
/// else reads them, so that no proxy in front can disagree with this server about them: exactly one
/// `Host` (or none, from HTTP/1.0 only), at most one `Content-Length`, which must be digits
/// (a repeated one is refused even when its values agree, which RFC 9110 §8.6 allows), and not both
/// `Content-Length` and `Transfer-Encoding` (request smuggling, RFC 9112 §6.1) — each 400. A body
/// of any other kind, on any method, is 413: the server reads none.
public enum HTTPRequestParser {
    /// The largest request head accepted, in bytes (request line and headers).
    public static let maximumHeadSize = 16 * 1024
    /// The most header fields accepted.
    public static let maximumHeaderCount = 64

    public enum Outcome: Equatable {
        /// More bytes are needed.
        case incomplete
        case request(HTTPRequest)
        /// Refused: answer with this status and close.
        case refused(HTTPStatus, String)
    }

    public static func parse(_ bytes: [UInt8]) -> Outcome {
        guard let end = headEnd(bytes) else {
            return bytes.count >= maximumHeadSize ? .refused(.headersTooLarge, "the request head is over \(maximumHeadSize) bytes") : .incomplete
        }
        guard end <= maximumHeadSize else { return .refused(.headersTooLarge, "the request head is over \(maximumHeadSize) bytes") }
        var lines = split(Array(bytes[..<end]))
        guard !lines.isEmpty else { return .refused(.badRequest, "empty request") }
        let requestLine = lines.removeFirst()
        let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, let method = token(parts[0]), let target = visible(parts[1]), let version = visible(parts[2]) else {
            return .refused(.badRequest, "malformed request line")
        }
        guard version.hasPrefix("HTTP/1.") else {
            return version.hasPrefix("HTTP/") ? .refused(.versionNotSupported, "only HTTP/1.x") : .refused(.badRequest, "malformed request line")
        }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { return .refused(.versionNotSupported, "only HTTP/1.0 and 1.1") }
        guard lines.count <= maximumHeaderCount else { return .refused(.headersTooLarge, "more than \(maximumHeaderCount) header fields") }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            // Obsolete line folding (a line starting with white space) is refused, as RFC 9112 allows.
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), let name = token(line[..<colon]) else {
                return .refused(.badRequest, "malformed header field")
            }
            let value = line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
            guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else { return .refused(.badRequest, "control character in a header field") }
            headers.append((name, String(decoding: value, as: UTF8.self).trimmingTrailingWhitespace))
        }
        let request = HTTPRequest(method: method, target: target, version: version, headers: headers)
        let hosts = request.values("Host")
        guard hosts.count <= 1 else { return .refused(.badRequest, "more than one Host header") }
        if version == "HTTP/1.1", hosts.isEmpty { return .refused(.badRequest, "no Host header") }
        let lengths = request.values("Content-Length")
        guard lengths.count <= 1 else { return .refused(.badRequest, "more than one Content-Length header") }
        guard lengths.allSatisfy(isDecimal) else { return .refused(.badRequest, "a Content-Length that is not a number") }
        let encodings = request.values("Transfer-Encoding")
        guard encodings.isEmpty || lengths.isEmpty else { return .refused(.badRequest, "both Transfer-Encoding and Content-Length") }
        guard encodings.isEmpty, lengths.allSatisfy({ $0.utf8.allSatisfy { $0 == UInt8(ascii: "0") } }) else {
            return .refused(.contentTooLarge, "request bodies are not accepted")
        }
        return .request(request)
    }

    /// Whether `text` is one or more ASCII digits, as Content-Length must be.
    public static func isDecimal(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// The offset just past the blank line that ends the head (CRLF CRLF, or bare LF LF).
    public static func headEnd(_ bytes: [UInt8]) -> Int? {
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x0A {
                if i + 1 < bytes.count, bytes[i + 1] == 0x0A { return i + 2 }
                if i + 2 < bytes.count, bytes[i + 1] == 0x0D, bytes[i + 2] == 0x0A { return i + 3 }
            }
            i += 1
        }
        return nil
    }

    /// The head's lines without their line ends and without the final empty line.
    public static func split(_ head: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines = head.split(separator: 0x0A, omittingEmptySubsequences: false).map { $0.last == 0x0D ? $0.dropLast() : $0 }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// A token (method, field name): visible ASCII without separators; nil otherwise.
    public static func token(_ bytes: ArraySlice<UInt8>) -> String? {
        let separators = Set("()<>@,;:\\\"/[]?={} \t".utf8)
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !separators.contains($0) }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Visible ASCII without spaces; nil otherwise.
    public static func visible(_ bytes: ArraySlice<UInt8>) -> String? {
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

private extension String {
    var trimmingTrailingWhitespace: String {
        var s = Substring(self)
        while let last = s.last, last == " " || last == "\t" { s = s.dropLast() }
        return String(s)
    }
}
