import Foundation
import Testing
import WaveTestSupport
import WaveGIF
import WaveKit
import WavePlatform
import WaveWebP
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview

/// `wavegen serve` (and `preview --watch`) end to end: the built binary on a free port, read and
/// written to over real sockets. (`scripts/checks/check-serve` checks the page itself in Chromium.) Serialized: the timing checks (a change shown within 2 s) should
/// not compete with each other for the machine's cores.
@Suite(.serialized) struct ServeTests {
    /// How long the first render may take (a debug build, a busy machine).
    static let startup: TimeInterval = 60
    /// How soon a change on disk must reach an open event stream.
    static let changeLimit: TimeInterval = 2

    /// A file `wavegen render` writes for `preset` as `format`, read back.
    func rendered(_ preset: String, _ format: String, in folder: TemporaryFolder) throws -> [UInt8] {
        let out = folder.file("expected.\(format)")
        let r = wavegen(["render", preset, "-o", out, "-q"])
        try #require(r.code == 0, "\(r.err)")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    @Test func servesThePageAndEveryRenderedFileAsRenderWritesIt() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "tiny.json")
        let server = try ServerProcess(["serve", "tiny.json"], in: folder)

        let page = try server.get("/")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.text.hasPrefix("<!DOCTYPE html>"))
        #expect(!page.text.contains("http://") && !page.text.contains("https://"), "the page must load nothing from elsewhere")
        #expect(page.headers["content-security-policy"]?.contains("default-src 'none'") == true)

        let events = try server.events()
        let ready = try #require(events.until(timeout: Self.startup) { $0.allRendered }, "no rendered state; stderr: \(server.err)")
        #expect(events.head.hasPrefix("HTTP/1.1 200 OK"))
        #expect(events.head.contains("Content-Type: text/event-stream"))
        // Each format a browser shows, in the order of OutputFormat.
        let formats = OutputFormat.allCases.filter { $0.mimeType.hasPrefix("image/") }
        #expect(ready.state.outputs.map(\.format) == formats.map(\.rawValue))
        #expect(ready.state.groups.map(\.files) == [["tiny.json"]])
        for output in ready.state.outputs {
            let url = try #require(output.url)
            #expect(url.hasPrefix("/o/") && !url.contains(folder.path) && !url.contains("tiny"), "not an opaque name: \(url)")
            let answer = try server.get(url)
            #expect(answer.status == 200)
            #expect(answer.headers["content-type"] == output.mimeType)
            #expect(answer.body == (try rendered(folder.file("tiny.json"), output.format, in: folder)), "\(output.format) differs from wavegen render")
            #expect(answer.body.count == output.bytes)
            let head = try server.get(url, method: "HEAD")
            #expect(head.status == 200 && head.body.isEmpty && head.headers["content-length"] == "\(answer.body.count)")
        }
        let gifURL = try #require(ready.state.outputs.first { $0.format == "gif" }?.url)
        let gif = try GIFDecoder.decode(try server.get(gifURL).body)
        #expect(gif.width == 16 && gif.frames.count == 10)
        let webpURL = try #require(ready.state.outputs.first { $0.format == "webp" }?.url)
        #expect(try WebPAnimationDecoder.decode(try server.get(webpURL).body).frames.count == 10)
        #expect(server.out.split(separator: "\n").dropFirst().first?.hasPrefix("tiny.json: \(formats.count) outputs, \(formats.count) rendered in ") == true,
                "\(server.out)")
        #expect(server.err.isEmpty, "\(server.err)")
    }

    @Test func refusesEveryOtherPathAndBadRequestsAndKeepsServing() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "tiny.json")
        try folder.writeFile("secret", at: "o/secret.txt")
        let server = try ServerProcess(["serve", "tiny.json"], in: folder)
        _ = try #require(try server.events().until(timeout: Self.startup) { $0.allRendered })

        let notFound = ["/../", "/..", "/%2e%2e/", "/%2E%2E/%2e%2e/etc/passwd", "/../tiny.json", "/tiny.json", "/o/", "/o/../tiny.json",
                        "/o/%2e%2e/tiny.json", "/o/secret.txt", "/o/..%2fsecret.txt", "//etc/passwd", "/etc/passwd", "\(folder.path)/tiny.json",
                        "/index.html", "/o", "http://127.0.0.1:\(server.port)/", "*", "/events/../tiny.json"]
        for target in notFound {
            let answer = try server.get(target)
            #expect(answer.status == 404, "\(target): \(answer.status)")
            #expect(!answer.text.contains("secret") && !answer.text.contains("size"), "\(target) leaked a file")
        }
        #expect(try server.get("/", method: "POST").status == 405)
        #expect(try server.get("/", method: "DELETE").headers["allow"] == "GET, HEAD")
        #expect(try server.get("/", host: "evil.example:80").status == 403, "another Host is refused (DNS rebinding)")
        #expect(try HTTPAnswer.fetch(port: server.port, request: "garbage\r\n\r\n").status == 400)
        #expect(try HTTPAnswer.fetch(port: server.port, request: "GET / HTTP/1.1\r\n\r\n").status == 400, "HTTP/1.1 needs a Host")
        #expect(try HTTPAnswer.fetch(port: server.port, request: "GET / HTTP/2.0\r\nHost: x\r\n\r\n").status == 505)
        let huge = "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nX-Fill: \(String(repeating: "a", count: 20_000))\r\n\r\n"
        #expect(try HTTPAnswer.fetch(port: server.port, request: huge).status == 431)
        let bodyGet = "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Length: 5\r\n\r\nhello"
        #expect(try HTTPAnswer.fetch(port: server.port, request: bodyGet).status == 413)
        // Random bytes, a connection closed half way, and one that sends nothing and hangs up.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 { _ = try? HTTPAnswer.fetch(port: server.port, bytes: (0..<300).map { _ in UInt8.random(in: 0...255, using: &generator) } + [13, 10, 13, 10]) }
        for _ in 0..<5 {
            let s = try TestSocket(port: server.port)
            s.send(Array("GET / HT".utf8))
        }
        _ = try TestSocket(port: server.port)

        #expect(!server.run.hasEnded, "the server died: \(server.err)")
        #expect(try server.get("/").status == 200)
        #expect(try folder.contents().sorted() == ["o", "tiny.json"], "the server wrote into the folder")
    }

    /// A refusal is read by the client, not lost to a reset: the server reads what the client sent
    /// before closing, the rest of a head over 16 KiB and a refused body included.
    @Test func aRefusedRequestIsAnsweredBeforeTheConnectionCloses() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "tiny.json")
        let server = try ServerProcess(["serve", "tiny.json"], in: folder)
        let host = "Host: 127.0.0.1:\(server.port)\r\n"
        let fields = (0..<HTTPRequestParser.maximumHeaderCount).map { "X-\($0): y\r\n" }.joined()
        let refused: [(request: String, status: Int)] = [
            ("GET / HTTP/1.1\r\n\(host)X-Fill: \(String(repeating: "a", count: 17_000))\r\n\r\n", 431),
            ("GET / HTTP/1.1\r\n\(host)X-Fill: \(String(repeating: "a", count: 48_000))\r\n\r\n", 431),
            ("GET / HTTP/1.1\r\n\(host)\(fields)\r\n", 431),
            ("GET / HTTP/1.1\r\n\(host)Content-Length: 32000\r\n\r\n\(String(repeating: "b", count: 32_000))", 413),
            ("GET / HTTP/1.1\r\n\(host)Host: evil.example\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: evil.example\r\n\(host)\r\n", 400),
            ("GET / HTTP/1.1\r\n\(host)Content-Length: 4\r\nContent-Length: 4\r\n\r\nbody", 400),
            ("GET / HTTP/1.1\r\n\(host)Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
        ]
        for (request, status) in refused {
            for pause in [0, 0, 0.05] {
                let answer = try HTTPAnswer.fetch(port: server.port, request: request, pause: pause)
                #expect(answer.status == status && answer.endedCleanly, "\(request.prefix(60)): \(answer.status), ended cleanly: \(answer.endedCleanly)")
                #expect(answer.headers["connection"] == "close")
            }
        }
        #expect(!server.run.hasEnded, "the server died: \(server.err)")
        #expect(try server.get("/").status == 200)
    }

    /// Over 32 connections, a client reads 503 (with Retry-After), whether it has sent its request
    /// or not, rather than a reset; the server serves again once connections close.
    @Test func aConnectionOverTheLimitReads503() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "tiny.json")
        let server = try ServerProcess(["serve", "tiny.json"], in: folder)
        var streams: [EventStreamReader] = []
        for k in 0..<HTTPServer.maximumConnections {
            let stream = try server.events()
            try #require(stream.next(timeout: 10) != nil, "event stream \(k + 1) was not served")
            streams.append(stream)
        }
        let request = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n".utf8)
        for pause in [0, 0.1] {
            let answer = try HTTPAnswer.fetch(port: server.port, bytes: request, pause: pause)
            #expect(answer.status == 503 && answer.endedCleanly, "\(answer.status), ended cleanly: \(answer.endedCleanly)")
            #expect(answer.headers["retry-after"] == "\(HTTPServer.retryAfter)" && answer.headers["connection"] == "close")
        }
        // Many at once, each request sent right after connecting, so most are there, unread, when
        // the server answers: more than it refuses on threads of their own (the rest are answered
        // from the accepting thread). A server that closed without reading them would reset them.
        var burst = try (0..<(HTTPServer.maximumRefusals + 24)).map { _ in
            let socket = try TestSocket(port: server.port)
            socket.send(request)
            return socket
        }
        for (k, socket) in burst.enumerated() {
            let answer = String(decoding: socket.receiveAll(), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 503 ") && socket.receiveError == 0, "burst \(k + 1): \(answer.prefix(40)), error \(socket.receiveError)")
        }
        burst.removeAll()
        let silent = try TestSocket(port: server.port)
        let answer = String(decoding: silent.receiveAll(), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 503 ") && silent.receiveError == 0, "a client that sent nothing: \(answer.prefix(40)), error \(silent.receiveError)")

        // An event stream notices its client has gone when a heartbeat cannot be sent.
        streams.removeAll()
        let deadline = Date().addingTimeInterval(3 * EventStream.heartbeat + 5)
        var status = 0
        while status != 200, Date() < deadline {
            status = try server.get("/").status
            if status != 200 { usleep(200_000) }
        }
        #expect(status == 200, "not served again after the streams closed")
        #expect(!server.run.hasEnded, "the server died: \(server.err)")
    }

    @Test func aChangeOnDiskIsRenderedAndPushedWithinTwoSecondsAndErrorsDoNotStopIt() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "tiny.json")
        let server = try ServerProcess(["serve", "tiny.json"], in: folder)
        let events = try server.events()
        let first = try #require(events.until(timeout: Self.startup) { $0.allRendered }, "stderr: \(server.err)")
        let firstGIF = try #require(first.state.outputs.first { $0.format == "gif" }?.url)

        // A new color: a change event within 2 s, and the new files are what render writes.
        try folder.writeFile(blinkPreset.replacingOccurrences(of: "#1E88E5", with: "#E53935"), at: "tiny.json")
        var start = Date()
        let changed = try #require(events.until(timeout: Self.changeLimit) { $0.allRendered && $0.generation > first.state.generation },
                                   "no change within \(Self.changeLimit) s")
        #expect(Date().timeIntervalSince(start) < Self.changeLimit)
        #expect(changed.event == "change")
        #expect(changed.state.changed == ["0-0"])
        let gif = try #require(changed.state.outputs.first { $0.format == "gif" }?.url)
        #expect(gif != firstGIF)
        #expect(try server.get(gif).body == (try rendered(folder.file("tiny.json"), "gif", in: folder)))

        // Broken: the errors in the event and on stderr, in the compiler form; the page still served.
        try folder.writeFile(##"{"size": [16, 16], "fps": 0, "layers": [{"color": "#1E88E5", "speed": 1}]}"##, at: "tiny.json")
        start = Date()
        let broken = try #require(events.until(timeout: Self.changeLimit) { !$0.groups.flatMap(\.errors).isEmpty }, "no error within \(Self.changeLimit) s")
        #expect(Date().timeIntervalSince(start) < Self.changeLimit)
        let error = "tiny.json:1:27: error: at fps: must be at least 0.1 and at most 240, got 0"
        #expect(broken.state.groups.flatMap(\.errors) == [error])
        #expect(broken.state.outputs.allSatisfy { $0.url == nil })
        var stderr = ""
        for _ in 0..<100 where !stderr.contains(error) { stderr = server.err; usleep(20_000) }
        #expect(stderr.split(separator: "\n").map(String.init) == [error])
        #expect(try server.get("/").status == 200)
        #expect(!server.run.hasEnded)

        // Fixed again: rendered again.
        try folder.writeFile(blinkPreset, at: "tiny.json")
        let fixed = try #require(events.until(timeout: Self.changeLimit) { $0.allRendered }, "no recovery within \(Self.changeLimit) s")
        #expect(fixed.state.groups.flatMap(\.errors).isEmpty)
        #expect(fixed.state.outputs.first { $0.format == "gif" }?.url == firstGIF, "the same preset, the same file")
        #expect(try server.get(firstGIF).status == 200)
    }

    /// The files a preset reads besides itself: the preset it extends and its rider image.
    @Test func aParentPresetAndARiderImageAreWatched() throws {
        let folder = try TemporaryFolder()
        let pngs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("WavePNGTests/Fixtures/png")
        try FileManager.default.copyItem(at: pngs.appendingPathComponent("rgba8.png"), to: folder.url.appendingPathComponent("rider.png"))
        try folder.writeFile(##"{"size": [24, 24], "fps": 10, "background": "#FFFFFF", "layers": [{"color": "#1E88E5", "speed": 1}]}"##, at: "base/parent.json")
        try folder.writeFile(#"{"extends": "base/parent.json", "rider": {"image": "rider.png", "width": "8px"}}"#, at: "child.json")
        let server = try ServerProcess(["serve", "child.json"], in: folder)
        let events = try server.events()
        let first = try #require(events.until(timeout: Self.startup) { $0.allRendered }, "stderr: \(server.err)")
        #expect(first.state.groups.map(\.files) == [["child.json", "base/parent.json", "rider.png"]])

        try folder.writeFile(##"{"size": [24, 24], "fps": 10, "background": "#FFF59D", "layers": [{"color": "#1E88E5", "speed": 1}]}"##, at: "base/parent.json")
        let afterParent = try #require(events.until(timeout: Self.changeLimit) { $0.allRendered && $0.generation > first.state.generation },
                                       "the parent's change was not seen within \(Self.changeLimit) s")
        let gif = try #require(afterParent.state.outputs.first { $0.format == "gif" }?.url)
        #expect(try server.get(gif).body == (try rendered(folder.file("child.json"), "gif", in: folder)))

        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("rider.png"))
        try FileManager.default.copyItem(at: pngs.appendingPathComponent("palette.png"), to: folder.url.appendingPathComponent("rider.png"))
        let afterImage = try #require(events.until(timeout: Self.changeLimit) { $0.allRendered && $0.generation > afterParent.state.generation },
                                      "the image's change was not seen within \(Self.changeLimit) s")
        let newGIF = try #require(afterImage.state.outputs.first { $0.format == "gif" }?.url)
        #expect(newGIF != gif)
        #expect(try server.get(newGIF).body == (try rendered(folder.file("child.json"), "gif", in: folder)))
    }

    @Test func aManifestAndThePresetsOfItsJobsAreWatched() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "presets/blue.json")
        try folder.writeFile(#"{"jobs": [{"name": "blue", "preset": "presets/blue.json", "output": "out/{name}.{format}", "formats": ["gif"]}]}"#,
                             at: "wavegen.json")
        let server = try ServerProcess(["preview", "--watch"], in: folder)
        let events = try server.events()
        let first = try #require(events.until(timeout: Self.startup) { $0.allRendered }, "stderr: \(server.err)")
        #expect(first.state.outputs.map(\.path) == ["out/blue.gif"])
        #expect(first.state.groups.map(\.files) == [["wavegen.json", "presets/blue.json"]])

        try folder.writeFile(#"{"jobs": [{"name": "blue", "preset": "presets/blue.json", "output": "out/{name}.{format}", "formats": ["gif", "webp"]}]}"#,
                             at: "wavegen.json")
        let more = try #require(events.until(timeout: Self.changeLimit) { $0.allRendered && $0.outputs.count == 2 }, "the manifest's change was not seen")
        #expect(more.state.outputs.map(\.path) == ["out/blue.gif", "out/blue.webp"])
        try folder.writeFile(blinkPreset.replacingOccurrences(of: "#1E88E5", with: "#43A047"), at: "presets/blue.json")
        let green = try #require(events.until(timeout: Self.changeLimit) { $0.allRendered && $0.outputs.map(\.url) != more.state.outputs.map(\.url) },
                                 "the preset's change was not seen")
        #expect(green.event == "change")
        let gif = try #require(green.state.outputs.first?.url)
        #expect(try server.get(gif).body == (try rendered(folder.file("presets/blue.json"), "gif", in: folder)))
        try FileManager.default.removeItem(atPath: folder.file("expected.gif"))
        #expect(try folder.contents() == ["presets", "wavegen.json"], "nothing is written")
    }

    /// Each job's packed preset is what `presets pack` writes, after a change of its preset too;
    /// a job whose preset did not change keeps its packed file.
    @Test func thePackedPresetFollowsItsPreset() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "presets/blue.json")
        try folder.writeFile(blinkPreset.replacingOccurrences(of: "#1E88E5", with: "#43A047"), at: "presets/green.json")
        try folder.writeFile(#"{"jobs": [{"name": "blue", "preset": "presets/blue.json", "output": "out/{name}.{format}", "formats": ["gif"]}, "#
                             + #"{"name": "green", "preset": "presets/green.json", "output": "out/{name}.{format}", "formats": ["gif"]}]}"#, at: "wavegen.json")
        func packed(_ preset: String) throws -> [UInt8] {
            let out = folder.file("expected.wavegen.json")
            let r = wavegen(["presets", "pack", folder.file(preset), "-o", out, "--force"])
            try #require(r.code == 0, "\(r.err)")
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        let server = try ServerProcess(["serve"], in: folder)
        let events = try server.events()
        let first = try #require(events.until(timeout: Self.startup) { $0.allRendered }, "stderr: \(server.err)")
        let packs = first.state.outputs.map(\.pack)
        #expect(try server.get(try #require(packs[0])).body == (try packed("presets/blue.json")))
        #expect(try server.get(try #require(packs[1])).body == (try packed("presets/green.json")))

        try folder.writeFile(blinkPreset.replacingOccurrences(of: "#1E88E5", with: "#E53935"), at: "presets/blue.json")
        let changed = try #require(events.until(timeout: Self.changeLimit) { $0.allRendered && $0.outputs.first?.pack != packs[0] },
                                   "the preset's change did not reach its packed file")
        #expect(changed.state.outputs[1].pack == packs[1], "green did not change")
        #expect(try server.get(try #require(changed.state.outputs[0].pack)).body == (try packed("presets/blue.json")))
        #expect(try server.get(try #require(changed.state.outputs[1].pack)).body == (try packed("presets/green.json")))
    }

    /// Each input renders on its own: a preset that takes long does not hold up the others.
    @Test func aSlowPresetDoesNotHoldUpTheOthers() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(##"{"size": [1024, 1024], "fps": 50, "duration": 6, "layers": [{"color": "#1E88E5", "speed": 0.5}]}"##, at: "big.json")
        try folder.writeFile(blinkPreset, at: "tiny.json")
        let server = try ServerProcess(["serve", "big.json", "tiny.json", "-j", "1"], in: folder)
        let events = try server.events()
        let tinyDone = { (s: LiveState) in s.groups.count == 2 && s.groups[1].outputs.count > 0 && s.groups[1].outputs.allSatisfy { $0.url != nil } }
        let first = try #require(events.until(timeout: Self.startup, tinyDone), "stderr: \(server.err)")
        #expect(first.state.groups[0].subtitle == "rendering…" && first.state.groups[0].outputs.isEmpty, "big.json is still rendering")
        try folder.writeFile(blinkPreset.replacingOccurrences(of: "#1E88E5", with: "#E53935"), at: "tiny.json")
        let start = Date()
        let changed = try #require(events.until(timeout: Self.changeLimit) { tinyDone($0) && $0.generation > first.state.generation },
                                   "no change within \(Self.changeLimit) s while big.json renders")
        #expect(Date().timeIntervalSince(start) < Self.changeLimit)
        #expect(changed.state.groups[0].subtitle == "rendering…" && changed.state.groups[0].errors.isEmpty, "big.json is still rendering")
    }

    @Test func showsDraftsOfTheSlowFormatsThenTheirFinalFiles() throws {
        // 400×200 × 100 frames: a slow loop (PreviewRender.draftPixels), lossless WebP, APNG and an exact GIF.
        let slow = ##"{"size": [400, 200], "fps": 50, "duration": 2, "background": "#FFFFFF", "layers": [{"color": "#1E88E5", "speed": 1}]}"##
        let folder = try TemporaryFolder()
        try folder.writeFile(slow, at: "slow.json")
        let server = try ServerProcess(["serve", "slow.json"], in: folder)
        let events = try server.events()
        let first = try #require(events.until(timeout: Self.startup) { $0.allRendered }, "stderr: \(server.err)")
        #expect(first.state.outputs.allSatisfy { !$0.draft && $0.bytes != nil }, "the first render shows final files only")

        try folder.writeFile(slow.replacingOccurrences(of: "#1E88E5", with: "#E53935"), at: "slow.json")
        var drafts: [String: LiveState.Output] = [:]
        var draftFrames: [String: Int] = [:]
        var shownBeforeFinal = Set<String>()
        let final = try #require(events.until(timeout: Self.startup) { state in
            if state.groups.contains(where: \.rendering) {
                for o in state.outputs where o.url != first.state.outputs.first(where: { $0.id == o.id })?.url { shownBeforeFinal.insert(o.format) }
            }
            for o in state.outputs where o.draft && drafts[o.format] == nil {
                drafts[o.format] = o
                // The draft is served while it is shown, and holds every frame.
                if let url = o.url, let answer = try? server.get(url), answer.status == 200 {
                    switch o.format {
                    case "webp": draftFrames[o.format] = try? WebPAnimationDecoder.decode(answer.body).frames.count
                    case "gif": draftFrames[o.format] = try? GIFDecoder.decode(answer.body).frames.count
                    default: draftFrames[o.format] = answer.body.count > 0 ? 100 : 0
                    }
                }
            }
            return state.allRendered && state.generation > first.state.generation
        }, "the change was not shown; stderr: \(server.err)")
        #expect(Set(drafts.keys) == ["gif", "webp", "apng"], "drafts of \(drafts.keys.sorted())")
        #expect(drafts.values.allSatisfy { $0.bytes == nil && $0.url != nil }, "a draft's state carries no byte count")
        #expect(drafts.values.allSatisfy { $0.facts.contains { $0.hasPrefix("still being measured") } }, "the page says the size is still being measured")
        #expect(draftFrames["webp"] == 100 && draftFrames["gif"] == 100)
        #expect(shownBeforeFinal.contains("svg") || shownBeforeFinal.contains("gif"), "nothing was shown before every format was done")
        for o in final.state.outputs {
            #expect(!o.draft && o.bytes != nil)
            let url = try #require(o.url)
            #expect(url != drafts[o.format]?.url)
            #expect(try server.get(url).body == (try rendered(folder.file("slow.json"), o.format, in: folder)), "\(o.format) differs from wavegen render")
        }
        #expect(server.err.isEmpty, "\(server.err)")
    }

    @Test func aPortInUseIsOneLineAndExitStatus69() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "tiny.json")
        let taken = try TakenPort()
        let r = try HardeningProcess.run(["serve", "--port", "\(taken.port)", "tiny.json"], in: folder.url, timeout: 30)
        #expect(r.status == 69 && r.signal == nil)
        #expect(r.errLines == ["Error: cannot listen on 127.0.0.1:\(taken.port): the port is in use (pick another with --port, or --port 0 for a free one)"])
        #expect(r.out.isEmpty)
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalStopsItWithStatusZeroAndLeavesNothing(signal: Int32) throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "tiny.json")
        let server = try ServerProcess(["serve", "tiny.json"], in: folder)
        let events = try server.events()
        _ = try #require(events.until(timeout: Self.startup) { $0.allRendered })
        kill(server.run.pid, signal)
        let r = server.run.wait(timeout: 10)
        #expect(!r.timedOut, "still running 10 s after the signal")
        #expect(r.signal == nil && r.status == 0, "status \(r.status), signal \(r.signal ?? 0): \(r.err)")
        #expect(events.next(timeout: 5) == nil, "the event stream is closed")
        #expect(try folder.contents() == ["tiny.json"])
        #expect(r.err.isEmpty, "\(r.err)")
    }

    @Test func argumentsThatCannotServe() {
        #expect(wavegen(["preview", "--watch", "-o", "a.html", "classic"]).errLines.first == "Error: --watch serves the page instead of writing it; drop --output")
        #expect(wavegen(["preview", "--port", "8080", "-o", "a.html", "classic"]).errLines.first == "Error: --port needs --watch (or use 'wavegen serve')")
        let badPort = wavegen(["serve", "--port", "70000", "classic"])
        #expect(badPort.code == 64)
        #expect(badPort.errLines.first == "Error: --port expects a port number from 0 to 65535, got '70000'")
        #expect(wavegen(["preview", "--watch", "-o", "a.html"]).code == 64)
    }
}

/// A port some other socket listens on, for the time the value lives.
final class TakenPort {
    let fd: Int32
    let port: UInt16

    init() throws {
        let fd = Socket.stream()
        let bound = Socket.bind(fd, port: 0)
        self.fd = fd
        port = Socket.boundPort(fd)
        try #require(bound == 0 && Socket.listen(fd, backlog: 1) == 0)
    }

    deinit { close(fd) }
}
