/// What the preview server answers: the page at `/`, the event stream at `/events`, and the files
/// it rendered at `/o/NAME` (NAME: 32 hex digits of the file's SHA-256 and its extension). Paths
/// are compared as sent, never decoded or joined to a folder, so `/../`, `%2e%2e` or an absolute
/// URI match nothing and are 404; there is no listing of anything.
public enum LiveRoutes {
    public enum Answer {
        case response(HTTPResponse)
        /// Hand the connection to the event stream.
        case events
    }

    public static func answer(_ request: HTTPRequest, files: (String) -> LiveSession.ServedFile?) -> Answer {
        guard request.method == "GET" || request.method == "HEAD" else {
            return .response(.text(.methodNotAllowed, "only GET and HEAD", headers: [("Allow", "GET, HEAD")]))
        }
        let path = request.path
        if path == "/" {
            return .response(HTTPResponse(.ok, contentType: "text/html; charset=utf-8", body: Array(LivePage.html.utf8),
                                          headers: [("Content-Security-Policy", LivePage.contentSecurityPolicy), ("Cache-Control", "no-store")]))
        }
        if path == "/events" { return .events }
        if path.hasPrefix("/o/"), let file = files(String(path.dropFirst(3))) {
            // The name is the content's digest: what it names never changes.
            return .response(HTTPResponse(.ok, contentType: file.mimeType, body: file.bytes,
                                          headers: [("Cache-Control", "max-age=86400, immutable"),
                                                    ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:")]))
        }
        return .response(.text(.notFound, "no such page"))
    }
}
