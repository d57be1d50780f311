import Foundation
import Testing
import WaveTestSupport
@testable import WavePreview

/// The preview server's parts on their own: the request parser, the routes, the event format and
/// the file stamps.
@Suite struct ServeUnitTests {
    func parse(_ text: String) -> HTTPRequestParser.Outcome { HTTPRequestParser.parse(Array(text.utf8)) }

    func refusal(_ text: String) -> HTTPStatus? {
        if case let .refused(status, _) = parse(text) { return status }
        return nil
    }

    @Test func parsesARequestHead() throws {
        guard case let .request(r) = parse("GET /o/ab.gif?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8\r\nAccept:  */* \r\n\r\n") else {
            Issue.record("not parsed")
            return
        }
        #expect(r.method == "GET" && r.target == "/o/ab.gif?x=1" && r.path == "/o/ab.gif" && r.version == "HTTP/1.1")
        #expect(r.header("host") == "127.0.0.1:8")
        #expect(r.header("ACCEPT") == "*/*")
        // Bare line feeds, and HTTP/1.0 without a Host.
        guard case let .request(old) = parse("HEAD / HTTP/1.0\n\n") else { Issue.record("not parsed"); return }
        #expect(old.method == "HEAD" && old.headers.isEmpty)
    }

    @Test func waitsForTheWholeHead() {
        for text in ["", "GET", "GET / HTTP/1.1\r\n", "GET / HTTP/1.1\r\nHost: a\r\n"] { #expect(parse(text) == .incomplete, "\(text)") }
    }

    @Test func refusesWhatItDoesNotUnderstand() {
        #expect(refusal("garbage\r\n\r\n") == .badRequest)
        #expect(refusal("GET  / HTTP/1.1\r\nHost: a\r\n\r\n") == .badRequest, "two spaces")
        #expect(refusal("GET / HTTP/1.1\r\n\r\n") == .badRequest, "no Host")
        #expect(refusal("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n") == .badRequest, "obsolete line folding")
        #expect(refusal("GET / HTTP/1.1\r\nHo st: a\r\n\r\n") == .badRequest)
        #expect(refusal("GET / HTTP/1.1\r\nHost: a\u{1}b\r\n\r\n") == .badRequest)
        #expect(refusal("GET /\u{7F} HTTP/1.1\r\nHost: a\r\n\r\n") == .badRequest)
        #expect(refusal("GET / HTTP/2.0\r\nHost: a\r\n\r\n") == .versionNotSupported)
        #expect(refusal("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\n") == .contentTooLarge)
        #expect(refusal("GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n") == .contentTooLarge)
        #expect(refusal("GET / HTTP/1.1\r\nHost: a\r\n" + String(repeating: "X: y\r\n", count: 65) + "\r\n") == .headersTooLarge)
        #expect(refusal("GET /" + String(repeating: "a", count: HTTPRequestParser.maximumHeadSize)) == .headersTooLarge, "no end in sight")
    }

    /// The fields that say which host and which bytes are meant must be unambiguous (RFC 9112
    /// §3.2 and §6.3), or a proxy and this server could read one request two ways.
    @Test func refusesAmbiguousHostAndFraming() {
        let head = "GET / HTTP/1.1\r\nHost: a\r\n"
        #expect(refusal("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n") == .badRequest, "two Host headers")
        #expect(refusal("GET / HTTP/1.1\r\nHost: a\r\nhost: a\r\n\r\n") == .badRequest, "the same Host twice")
        #expect(refusal("GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n") == .badRequest, "two Host headers in HTTP/1.0")
        #expect(refusal("GET / HTTP/1.1\r\nAccept: */*\r\n\r\n") == .badRequest, "no Host in HTTP/1.1")
        #expect(refusal(head + "Content-Length: 0\r\nContent-Length: 0\r\n\r\n") == .badRequest, "a repeated Content-Length, even equal")
        #expect(refusal(head + "Content-Length: 0\r\nContent-Length: 5\r\n\r\n") == .badRequest, "differing Content-Lengths")
        #expect(refusal(head + "Content-Length: 5\r\ncontent-length: 7\r\n\r\n") == .badRequest)
        for value in ["5, 5", "0,0", "-1", "+5", "0x10", "1e3", "", "five", "٣"] {
            #expect(refusal(head + "Content-Length: \(value)\r\n\r\n") == .badRequest, "Content-Length: \(value)")
        }
        #expect(refusal(head + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n") == .badRequest, "CL and TE")
        #expect(refusal(head + "Transfer-Encoding: chunked\r\nContent-Length: 0\r\n\r\n") == .badRequest, "TE and CL = 0")
        #expect(refusal(head + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n") == .contentTooLarge, "a body, read by no one")
        #expect(refusal(head + "Content-Length: 99999999999999999999999\r\n\r\n") == .contentTooLarge)
        #expect(refusal("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n\r\nx") == .contentTooLarge)
        // No body: an empty Content-Length, written any way digits allow.
        for value in ["0", "00", " 0 "] {
            guard case let .request(r) = parse(head + "Content-Length:\(value)\r\n\r\n") else { Issue.record("Content-Length: \(value) refused"); continue }
            #expect(r.values("content-length") == [value.trimmingCharacters(in: .whitespaces)])
        }
        guard case let .request(one) = parse(head + "\r\n") else { Issue.record("one Host refused"); return }
        #expect(one.values("HOST") == ["a"])
    }

    func route(_ target: String, method: String = "GET") -> (status: HTTPStatus?, events: Bool, body: [UInt8]) {
        let request = HTTPRequest(method: method, target: target, version: "HTTP/1.1", headers: [("Host", "x")])
        let file = LiveSession.ServedFile(bytes: [1, 2, 3], mimeType: "image/gif", generation: 1)
        switch LiveRoutes.answer(request, files: { $0 == "0123456789abcdef0123456789abcdef.gif" ? file : nil }) {
        case let .response(r): return (r.status, false, r.body)
        case .events: return (nil, true, [])
        }
    }

    @Test func routesOnlyThePageTheEventsAndRenderedFiles() {
        #expect(route("/").status == .ok)
        #expect(String(decoding: route("/?reload").body, as: UTF8.self) == LivePage.html)
        #expect(route("/events").events)
        #expect(route("/o/0123456789abcdef0123456789abcdef.gif").body == [1, 2, 3])
        for target in ["/o/../0123456789abcdef0123456789abcdef.gif", "/../", "/%2e%2e/", "/o/", "/O/0123456789abcdef0123456789abcdef.gif",
                       "/o/0123456789abcdef0123456789abcdef.gif/", "http://x/", "/index.html", "*"] {
            #expect(route(target).status == .notFound, "\(target)")
        }
        #expect(route("/", method: "POST").status == .methodNotAllowed)
    }

    @Test func eventsCarryEveryLineOfTheirData() {
        #expect(EventStream.message(event: "change", data: "{\"a\":1}") == "event: change\ndata: {\"a\":1}\n\n")
        #expect(EventStream.message(event: "state", data: "a\nb") == "event: state\ndata: a\ndata: b\n\n")
    }

    @Test func aSnapshotSeesWritesCreationRemovalAndReplacement() throws {
        let folder = try TemporaryFolder()
        let a = try folder.write("one", to: "a.json")
        let b = folder.file("b.json")
        var snapshot = FileSnapshot([a, b])
        #expect(snapshot.changedPaths().isEmpty)
        try "two".write(toFile: a, atomically: false, encoding: .utf8)
        #expect(snapshot.changedPaths() == [a], "same size, new content")
        snapshot = FileSnapshot([a, b])
        try "new".write(toFile: b, atomically: false, encoding: .utf8)
        #expect(snapshot.changedPaths() == [b], "created")
        snapshot = FileSnapshot([a, b])
        try "two".write(toFile: a, atomically: true, encoding: .utf8)
        #expect(snapshot.changedPaths() == [a], "renamed over")
        snapshot = FileSnapshot([a, b])
        try FileManager.default.removeItem(atPath: b)
        #expect(snapshot.changedPaths() == [b], "removed")
    }

    /// A save that truncates the file and writes it later is waited for, so the server never reads
    /// the empty file between the two; a file left empty is read once the limit has passed.
    @Test func aSaveUnderWayIsWaitedFor() throws {
        let folder = try TemporaryFolder()
        let a = try folder.write("{}", to: "a.json")
        #expect(FileSnapshot.waitUntilQuiet([a], interval: 0.02, limit: 2) < 1, "a quiet file is not waited for")

        FileManager.default.createFile(atPath: a, contents: Data())
        let writer = Thread { usleep(300_000); try? "{\"fps\": 10}".write(toFile: a, atomically: false, encoding: .utf8) }
        writer.start()
        let waited = FileSnapshot.waitUntilQuiet([a], interval: 0.02, limit: 5)
        #expect(waited >= 0.25 && waited < 5, "waited \(waited) s")
        #expect(try String(contentsOfFile: a, encoding: .utf8) == "{\"fps\": 10}", "read after the write")

        FileManager.default.createFile(atPath: a, contents: Data())
        let gone = folder.file("gone.json")
        let limited = FileSnapshot.waitUntilQuiet([a, gone], interval: 0.02, limit: 0.2)
        #expect(limited >= 0.2 && limited < 2, "an empty and a missing file are read after the limit: \(limited) s")
    }

    @Test func theLivePageLoadsNothingFromElsewhere() {
        #expect(!LivePage.html.contains("http://") && !LivePage.html.contains("https://") && !LivePage.html.contains("src=\""))
        #expect(LivePage.html.contains("image-rendering: pixelated"))
    }
}
