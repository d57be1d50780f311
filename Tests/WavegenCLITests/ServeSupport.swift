import Foundation
import Testing
import WaveTestSupport
import WavePlatform
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview

/// A `wavegen serve` (or `preview --watch`) process: started in a folder, its address read from
/// its first line of output; killed when the value goes away, whatever happened.
final class ServerProcess {
    let run: HardeningProcess.Running
    let port: UInt16

    /// Starts `wavegen args` in `folder` and waits up to `timeout` seconds for the address.
    init(_ args: [String], in folder: TemporaryFolder, timeout: TimeInterval = 30) throws {
        run = try HardeningProcess.start(args, in: folder.url)
        let deadline = Date().addingTimeInterval(timeout)
        var found: UInt16?
        while found == nil, Date() < deadline, !run.hasEnded {
            let out = FileManager.default.contents(atPath: run.outPath).map { String(decoding: $0, as: UTF8.self) } ?? ""
            if let line = out.split(separator: "\n").first, out.contains("\n") {
                let prefix = "http://127.0.0.1:"
                try #require(line.hasPrefix(prefix) && line.hasSuffix("/"), "the first line is not the address: \(line)")
                found = UInt16(line.dropFirst(prefix.count).dropLast())
                try #require(found != nil, "no port in \(line)")
            }
            usleep(10_000)
        }
        guard let found else {
            let r = run.wait(timeout: 1)
            Issue.record("no address within \(timeout) s; status \(r.status), stderr: \(r.err)")
            throw CancellationError()
        }
        port = found
    }

    /// What it has printed so far.
    var out: String { FileManager.default.contents(atPath: run.outPath).map { String(decoding: $0, as: UTF8.self) } ?? "" }
    var err: String { FileManager.default.contents(atPath: run.errPath).map { String(decoding: $0, as: UTF8.self) } ?? "" }

    func get(_ target: String, method: String = "GET", host: String? = nil) throws -> HTTPAnswer {
        try HTTPAnswer.fetch(port: port, bytes: Array("\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n\r\n".utf8),
                             hasBody: method != "HEAD")
    }

    /// Opens the event stream.
    func events() throws -> EventStreamReader { try EventStreamReader(port: port) }

    deinit {
        if !run.hasEnded { _ = run.wait(timeout: 0) }
    }
}

/// A connected TCP socket to 127.0.0.1 with receive and send timeouts, closed on deinit.
final class TestSocket {
    let fd: Int32
    /// The error of the last receive that failed (ECONNRESET: the server reset the connection;
    /// EAGAIN: the timeout passed), or 0 while every receive has succeeded or seen the end.
    private(set) var receiveError: Int32 = 0

    init(port: UInt16, timeout: Int = 10) throws {
        fd = Socket.stream()
        try #require(fd >= 0)
        Socket.setTimeouts(fd, seconds: timeout)
        let r = Socket.connect(fd, port: port)
        try #require(r == 0, "cannot connect to port \(port): \(String(cString: strerror(errno)))")
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Socket.send(fd, $0.baseAddress, $0.count, noSignal: true) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Some bytes, or nil at the end of the stream (or after the timeout).
    func receive() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { Socket.receive(fd, into: $0) }
        if n < 0 { receiveError = errno }
        return n > 0 ? Array(buffer[..<n]) : nil
    }

    /// Everything until the end of the stream, a reset or the timeout (`receiveError` tells which).
    func receiveAll() -> [UInt8] {
        var received: [UInt8] = []
        while let chunk = receive() { received += chunk }
        return received
    }

    /// Whether bytes arrive within `timeout` seconds.
    func readable(within timeout: TimeInterval) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, Int32(timeout * 1000)) > 0
    }
}

/// A response read to the end of its connection.
struct HTTPAnswer {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    /// Whether the connection ended with the server's end of stream, not a reset or a timeout.
    var endedCleanly = true

    var text: String { String(decoding: body, as: UTF8.self) }

    /// Sends `request` as it is and reads the answer until the server closes the connection.
    static func fetch(port: UInt16, request: String, pause: TimeInterval = 0) throws -> HTTPAnswer {
        try fetch(port: port, bytes: Array(request.utf8), pause: pause)
    }

    /// With `pause`, waits that many seconds between sending and reading, as a slow client does.
    static func fetch(port: UInt16, bytes: [UInt8], hasBody: Bool = true, pause: TimeInterval = 0) throws -> HTTPAnswer {
        let socket = try TestSocket(port: port)
        socket.send(bytes)
        if pause > 0 { usleep(useconds_t(pause * 1_000_000)) }
        let received = socket.receiveAll()
        let separator = Array("\r\n\r\n".utf8)
        let end = try #require((0..<max(0, received.count - 3)).first { Array(received[$0..<$0 + 4]) == separator },
                               "no response head in \(received.count) bytes")
        let lines = String(decoding: received[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ", maxSplits: 2)
        try #require(parts.count >= 2 && parts[0] == "HTTP/1.1", "bad status line \(lines[0])")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = Array(received[(end + 4)...])
        if hasBody, let length = headers["content-length"].flatMap(Int.init) { #expect(body.count == length, "Content-Length \(length), got \(body.count) bytes") }
        return HTTPAnswer(status: Int(parts[1]) ?? 0, headers: headers, body: body, endedCleanly: socket.receiveError == 0)
    }
}

/// Reads server-sent events from `/events`.
final class EventStreamReader {
    let socket: TestSocket
    private var buffer: [UInt8] = []
    private(set) var head = ""

    init(port: UInt16) throws {
        socket = try TestSocket(port: port)
        socket.send(Array("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n".utf8))
    }

    /// The next event (its name and data) within `timeout` seconds, or nil.
    func next(timeout: TimeInterval) -> (event: String, data: String)? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if head.isEmpty, let end = find("\r\n\r\n") {
                head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
            }
            if !head.isEmpty, let end = find("\n\n") {
                let block = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 2)
                var event = "message", data: [String] = []
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
                }
                if data.isEmpty { continue }  // a comment or the retry field
                return (event, data.joined(separator: "\n"))
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0, socket.readable(within: left), let chunk = socket.receive() else { return nil }
            buffer += chunk
        }
    }

    /// Reads events until one's state satisfies `condition`; returns it and its event name.
    func until(timeout: TimeInterval, _ condition: (LiveState) -> Bool) -> (event: String, state: LiveState)? {
        let deadline = Date().addingTimeInterval(timeout)
        while let e = next(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if let state = LiveState(json: e.data), condition(state) { return (e.event, state) }
        }
        return nil
    }

    private func find(_ text: String) -> Int? {
        let needle = Array(text.utf8)
        guard buffer.count >= needle.count else { return nil }
        return (0...(buffer.count - needle.count)).first { Array(buffer[$0..<$0 + needle.count]) == needle }
    }
}

/// The state an event carries, as the page reads it.
struct LiveState {
    struct Output {
        var id: String
        var path: String
        var format: String
        var mimeType: String
        var url: String?
        var frames: Int?
        var bytes: Int?
        var errors: [String]
        /// Whether the file is a slow loop's draft (its size still being measured).
        var draft = false
        /// The texts of the facts the page lists under it.
        var facts: [String] = []
        /// Where the job's preset is served packed.
        var pack: String? = nil
    }

    struct Group {
        var id: String
        var title: String
        var subtitle: String
        var errors: [String]
        var warnings: [String]
        var files: [String]
        var outputs: [Output]
        /// Whether some of its outputs are still rendering (drafts or earlier files shown meanwhile).
        var rendering = false
    }

    var generation: Int
    var changed: [String]
    var groups: [Group]

    init?(json: String) {
        guard let root = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let generation = root["generation"] as? Int, let groups = root["groups"] as? [[String: Any]] else { return nil }
        self.generation = generation
        changed = root["changed"] as? [String] ?? []
        self.groups = groups.map { g in
            Group(id: g["id"] as? String ?? "", title: g["title"] as? String ?? "", subtitle: g["subtitle"] as? String ?? "", errors: g["errors"] as? [String] ?? [],
                  warnings: g["warnings"] as? [String] ?? [], files: g["files"] as? [String] ?? [],
                  outputs: (g["outputs"] as? [[String: Any]] ?? []).map { o in
                      Output(id: o["id"] as? String ?? "", path: o["path"] as? String ?? "", format: o["format"] as? String ?? "",
                             mimeType: o["mimeType"] as? String ?? "", url: o["url"] as? String, frames: o["frames"] as? Int,
                             bytes: o["bytes"] as? Int, errors: o["errors"] as? [String] ?? [], draft: o["draft"] as? Bool ?? false,
                             facts: (o["facts"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String },
                             pack: (o["pack"] as? [String: Any])?["url"] as? String)
                  }, rendering: g["rendering"] as? Bool ?? false)
        }
    }

    var outputs: [Output] { groups.flatMap(\.outputs) }

    /// Whether every output has been rendered (its final file, not a draft or the one before a change).
    var allRendered: Bool { !outputs.isEmpty && outputs.allSatisfy { $0.url != nil && !$0.draft } && !groups.contains(where: \.rendering) }
}
