import WaveBuild
import WavePlatform
import WaveKit

/// A small HTTP/1.1 server on POSIX sockets, listening on 127.0.0.1 only. Each connection is read
/// and answered on its own thread, one request per connection (`Connection: close`); a request
/// that is malformed, too large or too slow is answered with an error status and closed, never
/// allowed to stop the server. Every connection ends with `HTTPConnection.finish`, so the client
/// reads its answer, an error status included, rather than a reset.
public final class HTTPServer: @unchecked Sendable {
    /// The port listened on (the kernel's choice when 0 was asked for).
    public let port: UInt16
    private let listener: Int32
    private let lock = Lock()
    private var open = 0
    private var refusing = 0

    /// The most connections served at once (event streams included); more are answered 503.
    public static let maximumConnections = 32
    /// The most connections over the limit answered 503 at once, each on a thread that waits (at
    /// most `HTTPConnection.lingerTime`) for the client to read the answer; past that, the 503 is
    /// written from the accepting thread, which drops what the client has already sent and closes
    /// the connection without waiting.
    public static let maximumRefusals = 8
    /// The seconds a 503 asks the client to wait (`Retry-After`).
    public static let retryAfter = 1
    /// How long a client may take to send its request head, and to take a write, in seconds.
    public static let timeout = 10

    private init(listener: Int32, port: UInt16) {
        self.listener = listener
        self.port = port
    }

    deinit { Descriptor.close(listener) }

    /// Binds 127.0.0.1:`port` (0: a free port the kernel picks) and listens. A port in use, or
    /// one that may not be bound, is an error of exit status 69 naming it.
    public static func listen(port: UInt16) throws(WaveError) -> HTTPServer {
        switch Socket.listen(port: port, backlog: 64) {
        case let .success(fd):
            return HTTPServer(listener: fd, port: Socket.boundPort(fd))
        case let .failure(failure) where failure.step == .open:
            throw WaveError(.unavailable, ["cannot open a socket: \(failure.text)"])
        case let .failure(failure):
            let reason = failure.addressInUse ? "the port is in use (pick another with --port, or --port 0 for a free one)" : failure.text
            throw WaveError(.unavailable, ["cannot listen on 127.0.0.1:\(port): \(reason)"])
        }
    }

    /// Accepts connections until `stop` (a file descriptor) becomes readable, answering each
    /// request with `handle` on a thread of its own. Host headers other than this server's are
    /// refused (403), so a page of another site cannot reach it through DNS rebinding.
    public func run(until stop: Int32, handle: @escaping @Sendable (HTTPRequest, HTTPConnection) -> Void) {
        while true {
            let events: [Int16]
            switch Descriptor.waitForInput([listener, stop], milliseconds: -1) {
            case let .ready(returned): events = returned
            case .interrupted, .timedOut: continue
            case .failed: return
            }
            if events[1] != 0 { return }
            guard events[0] & Descriptor.readable != 0 else { continue }
            let client = Socket.accept(listener)
            guard client >= 0 else { continue }
            let connection = HTTPConnection(fd: client)
            guard admit() else {
                refuse(connection)
                continue
            }
            ProcessEnvironment.detachThread { [self] in
                defer { release() }
                serve(connection, handle: handle)
                connection.finish()
            }
        }
    }

    /// Answers a connection over `maximumConnections` with 503, `Retry-After` and `Connection:
    /// close`, without reading its request.
    private func refuse(_ connection: HTTPConnection) {
        let answer = HTTPResponse.text(.serviceUnavailable, "too many connections, try again", headers: [("Retry-After", "\(HTTPServer.retryAfter)")])
        guard admitRefusal() else {
            // A new socket's send buffer takes the short answer at once.
            _ = connection.send(answer.serialized())
            connection.finish(within: 0)
            return
        }
        ProcessEnvironment.detachThread { [self] in
            defer { releaseRefusal() }
            _ = connection.send(answer.serialized())
            connection.finish()
        }
    }

    private func admit() -> Bool {
        lock.withLock {
            guard open < HTTPServer.maximumConnections else { return false }
            open += 1
            return true
        }
    }

    private func release() { lock.withLock { open -= 1 } }

    private func admitRefusal() -> Bool {
        lock.withLock {
            guard refusing < HTTPServer.maximumRefusals else { return false }
            refusing += 1
            return true
        }
    }

    private func releaseRefusal() { lock.withLock { refusing -= 1 } }

    private func serve(_ connection: HTTPConnection, handle: (HTTPRequest, HTTPConnection) -> Void) {
        switch connection.readRequest() {
        case .incomplete:
            _ = connection.send(HTTPResponse.text(.requestTimeout, "the request was not complete").serialized())
        case let .refused(status, reason):
            _ = connection.send(HTTPResponse.text(status, reason).serialized())
        case let .request(request):
            let hosts = ["127.0.0.1:\(port)", "localhost:\(port)"]
            if let host = request.header("Host"), !hosts.contains(host.lowercased()) {
                _ = connection.send(HTTPResponse.text(.forbidden, "this server answers only to \(hosts[0])").serialized())
                return
            }
            handle(request, connection)
        }
    }
}
