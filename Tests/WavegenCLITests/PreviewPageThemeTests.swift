import Foundation
import Testing
import WaveKit
import WaveTestSupport
@testable import WavegenCLI

/// A 16×16 preset with a dark twin.
let twinPreset = """
    {"size": [16, 16], "fps": 10, "background": "#E3F2FD", "level": 0.5, "layers": [{"color": "#1E88E5", "speed": 1}],
     "dark": {"background": "#0D1B2A", "layers[0].color": "#90CAF9"}}
    """

/// What both preview pages show of live SVGs, dark twins and packed presets.
@Suite struct PreviewPageThemeTests {
    /// The bytes `wavegen ARGS -o FILE` writes (`render`, or `presets pack`).
    func written(_ args: [String], _ name: String, in folder: TemporaryFolder) throws -> [UInt8] {
        let r = wavegen(args + ["-o", folder.file(name)])
        try #require(r.code == 0, "wavegen \(args): \(r.err)")
        return try folder.bytes(name)
    }

    /// The part of `html` from the card whose caption is `path` to the end of that card.
    func card(_ html: String, _ path: String) throws -> String {
        let start = try #require(html.components(separatedBy: "<figcaption>\(path)</figcaption>").dropFirst().first, "no card for \(path)")
        return start.components(separatedBy: "</figure>")[0]
    }

    /// Each `<a download="NAME" href="data:…">` of a card: the name and the decoded bytes.
    func downloads(_ card: String) throws -> [(name: String, mime: String, bytes: [UInt8])] {
        try card.components(separatedBy: "<a download=\"").dropFirst().map { part in
            let name = String(part.prefix { $0 != "\"" })
            let href = try #require(part.components(separatedBy: "href=\"").dropFirst().first)
            let decoded = try decodeDataURI(String(href.prefix { $0 != "\"" }))
            return (name, decoded.mime, decoded.bytes)
        }
    }

    @Test func theStaticPageShowsLiveSVGsDarkTwinsAndPackedPresets() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(twinPreset, at: "presets/twin.json")
        try folder.writeFile(blinkPreset, at: "presets/plain.json")
        try folder.writeFile("""
            {"jobs": [
              {"name": "twin", "preset": "presets/twin.json", "output": "out/{name}.{format}", "formats": ["gif", "svg", "lottie"]},
              {"name": "live", "preset": "presets/twin.json", "output": "out/live.svg", "live": true},
              {"name": "plain", "preset": "presets/plain.json", "output": "out/plain.{format}", "formats": ["webp"]}
            ]}
            """, at: "wavegen.json")
        let page = folder.file("p.html")
        let r = wavegen(["preview", folder.file("wavegen.json"), "-o", page])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.isEmpty, "\(r.err)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let twin = folder.file("presets/twin.json"), plain = folder.file("presets/plain.json")
        // The manifest is named by its full path, so the outputs are too.
        func card(_ html: String, _ path: String) throws -> String { try self.card(html, folder.file(path)) }

        // A raster output of a preset with a twin: its light render on the light tile, its
        // --theme dark render on the dark one.
        let gifCard = try card(html, "out/twin.gif")
        let gifs = try imageSources(gifCard).map { try decodeDataURI($0).bytes }
        #expect(gifs.count == 2)
        #expect(gifs.first == (try written(["render", twin], "light.gif", in: folder)))
        #expect(gifs.last == (try written(["render", twin, "--theme", "dark"], "dark.gif", in: folder)))
        #expect(gifs.first != gifs.last)
        #expect(gifCard.contains("<div class=\"stage light\" data-theme=\"light\"><img"))
        #expect(gifCard.contains("<div class=\"stage dark\" data-theme=\"dark\"><img"))
        #expect(gifCard.contains("<dt>dark theme</dt>"))

        // An SVG carries both themes: inline twice, under data-theme wrappers on both tiles.
        let svg = String(decoding: try written(["render", twin], "twin.svg", in: folder), as: UTF8.self)
        let svgCard = try card(html, "out/twin.svg")
        #expect(svgCard.contains("<div class=\"stage light\" data-theme=\"light\"><div class=\"svg\" data-theme=\"light\">\(svg)</div>"))
        #expect(svgCard.contains("<div class=\"stage dark\" data-theme=\"dark\"><div class=\"svg\" data-theme=\"dark\">\(svg)</div>"))
        #expect(!svgCard.contains("<img"))

        // A Lottie: both themes' files to save.
        let lottie = try downloads(try card(html, "out/twin.json"))
        #expect(lottie.map(\.name) == ["twin.json", "twin-dark.json", "twin.wavegen.json"])
        #expect(lottie.first?.bytes == (try written(["render", twin], "light.json", in: folder)))
        #expect(lottie.dropFirst().first?.bytes == (try written(["render", twin, "--theme", "dark"], "dark.json", in: folder)))

        // A live SVG: a level slider from the preset's level, the SVG inline on both tiles, and
        // the script that sets --level on their wrappers.
        let live = String(decoding: try written(["render", twin, "--live"], "live.svg", in: folder), as: UTF8.self)
        let liveCard = try card(html, "out/live.svg")
        #expect(liveCard.contains("<input type=\"range\" class=\"level\" min=\"0\" max=\"100\" step=\"1\" value=\"50\">"))
        #expect(liveCard.components(separatedBy: "\">\(live)</div>").count - 1 == 2)
        #expect(liveCard.contains("data-theme=\"dark\">\(live)"))
        #expect(html.contains("wrapper.style.setProperty(\"--level\", slider.value / 100)"))
        #expect(!svgCard.contains("type=\"range\""), "only a live SVG has a slider")

        // A preset without a twin: one picture on both tiles, as before.
        let plainCard = try card(html, "out/plain.webp")
        let webps = imageSources(plainCard)
        #expect(webps.count == 2 && webps.first == webps.last)
        #expect(!plainCard.contains("light theme") && !plainCard.contains("dark theme"))

        // Every card links its preset packed: the bytes `presets pack` writes.
        let packedTwin = try written(["presets", "pack", twin], "twin.wavegen.json", in: folder)
        let packedPlain = try written(["presets", "pack", plain], "plain.wavegen.json", in: folder)
        for (path, packed, name) in [("out/twin.gif", packedTwin, "twin.wavegen.json"), ("out/twin.svg", packedTwin, "twin.wavegen.json"),
                                     ("out/live.svg", packedTwin, "twin.wavegen.json"), ("out/plain.webp", packedPlain, "plain.wavegen.json")] {
            let links = try downloads(try card(html, path)).filter { $0.name.hasSuffix(".wavegen.json") }
            #expect(links.count == 1, "\(path)")
            #expect(links.first?.name == name && links.first?.mime == "application/json")
            #expect(links.first?.bytes == packed, "\(path): the packed preset differs from presets pack")
        }
        #expect(html.contains(">download packed preset</a>"))
    }

    @Test func aPageWithoutALiveSVGHasNoScript() throws {
        let folder = try TemporaryFolder()
        let twin = try folder.writeFile(twinPreset, at: "twin.json")
        let page = folder.file("p.html")
        let r = wavegen(["preview", twin, "-o", page, "-q"])
        #expect(r.code == 0, "\(r.err)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(!html.contains("<script"))
        // GIF, WebP and APNG, each light and dark.
        let sources = imageSources(html)
        #expect(sources.count == 6)
        for k in stride(from: 0, to: 6, by: 2) { #expect(sources[k] != sources[k + 1], "the dark tile shows the dark theme") }
    }

    @Test func aThemeChosenOnTheCommandLineIsShownAsItIs() throws {
        let folder = try TemporaryFolder()
        let twin = try folder.writeFile(twinPreset, at: "twin.json")
        let page = folder.file("p.html")
        let r = wavegen(["preview", twin, "--theme", "dark", "-o", page, "-q"])
        #expect(r.code == 0, "\(r.err)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let sources = imageSources(html)
        #expect(sources.count == 6)
        let dark = try written(["render", twin, "--theme", "dark"], "dark.gif", in: folder)
        #expect(try decodeDataURI(sources[0]).bytes == dark && sources[0] == sources[1])
    }

    /// `wavegen serve`: the state tells the page which outputs are live (and at what level),
    /// where each dark theme's render is, and where the packed preset is; each is served with the
    /// bytes `render --theme dark` and `presets pack` write.
    @Test func serveServesDarkThemesLiveLevelsAndPackedPresets() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(twinPreset, at: "twin.json")
        try folder.writeFile("""
            {"jobs": [{"name": "live", "preset": "twin.json", "output": "out/live.svg", "live": true},
                      {"name": "twin", "preset": "twin.json", "output": "out/twin.{format}", "formats": ["gif", "svg", "lottie"]}]}
            """, at: "wavegen.json")
        let server = try ServerProcess(["serve", "wavegen.json"], in: folder)
        let events = try server.events()
        let deadline = Date().addingTimeInterval(ServeTests.startup)
        var outputs: [String: [String: Any]] = [:]
        // The dark themes arrive in a later state than the light renders.
        while Date() < deadline, outputs["out/twin.gif"]?["dark"] == nil || outputs["out/twin.json"]?["dark"] == nil {
            guard let e = events.next(timeout: max(0, deadline.timeIntervalSinceNow)),
                  let root = try JSONSerialization.jsonObject(with: Data(e.data.utf8)) as? [String: Any],
                  let groups = root["groups"] as? [[String: Any]] else { continue }
            outputs = [:]
            for o in groups.flatMap({ $0["outputs"] as? [[String: Any]] ?? [] }) { outputs[o["path"] as? String ?? ""] = o }
        }
        try #require(outputs.count == 4, "no state with every output; stderr: \(server.err)")
        let twin = folder.file("twin.json")
        func served(_ url: Any?) throws -> [UInt8] {
            let url = try #require(url as? String)
            #expect(url.hasPrefix("/o/") && !url.contains("twin"), "not an opaque name: \(url)")
            let answer = try server.get(url)
            #expect(answer.status == 200)
            return answer.body
        }

        let live = try #require(outputs["out/live.svg"])
        #expect(live["live"] as? Double == 0.5)
        #expect(try served(live["url"]) == (try written(["render", twin, "--live"], "live.svg", in: folder)))
        for path in ["out/twin.gif", "out/twin.json"] {
            let o = try #require(outputs[path])
            #expect(o["darkTwin"] as? Bool == true)
            #expect(o["live"] == nil)
            let ext = PathText.pathExtension(of: path)
            #expect(try served(o["url"]) == (try written(["render", twin], "light." + ext, in: folder)), "\(path)")
            #expect(try served((o["dark"] as? [String: Any])?["url"]) == (try written(["render", twin, "--theme", "dark"], "dark." + ext, in: folder)),
                    "\(path): the dark tile's file differs from render --theme dark")
        }
        let svg = try #require(outputs["out/twin.svg"])
        #expect(svg["darkTwin"] as? Bool == true && svg["dark"] == nil, "an SVG carries its dark theme itself")

        let packed = try written(["presets", "pack", twin], "twin.wavegen.json", in: folder)
        for (path, o) in outputs {
            let pack = try #require(o["pack"] as? [String: Any], "\(path) has no packed preset")
            #expect(pack["fileName"] as? String == "twin.wavegen.json")
            let answer = try server.get(try #require(pack["url"] as? String))
            #expect(answer.headers["content-type"] == "application/json")
            #expect(answer.body == packed, "\(path): the packed preset differs from presets pack")
        }
        #expect(server.err.isEmpty, "\(server.err)")
    }
}
