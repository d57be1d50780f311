import Foundation
import Testing
import WaveGIF
import WaveKit
import WavePNG
import WaveRender
import WaveWebP
import WaveTestSupport
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview

/// The data: URIs of a page's <img> tags, in order.
func imageSources(_ html: String) -> [String] {
    html.components(separatedBy: "<img src=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
}

func decodeDataURI(_ uri: String) throws -> (mime: String, bytes: [UInt8]) {
    let parts = uri.split(separator: ",", maxSplits: 1)
    try #require(parts.count == 2 && parts[0].hasPrefix("data:") && parts[0].hasSuffix(";base64"), "not a base64 data URI: \(uri.prefix(40))")
    let data = try #require(Data(base64Encoded: String(parts[1])))
    return (String(parts[0].dropFirst(5).dropLast(7)), [UInt8](data))
}

/// Headless Chromium, when it is installed.
let headlessChromium: String? = ChildProcess.find(["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"])

/// Runs Chromium headless with its own profile folder; returns what it printed on stdout.
func runChromium(_ args: [String], in folder: TemporaryFolder) throws -> String {
    let browser = try #require(headlessChromium)
    return try ChildProcess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                                 "--user-data-dir=\(folder.file("chromium-profile"))"] + args, in: folder.path, timeout: 120).out
}

@Suite struct BuildPreviewTests {
    @Test func presetsAreShownAsGIFWebPAndAPNGOnLightAndDark() throws {
        let folder = try TemporaryFolder()
        let tiny = try folder.writeFile(blinkPreset, at: "tiny.json")
        let page = folder.file("preview.html")
        let r = wavegen(["preview", tiny, "spinner", "-o", page])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.isEmpty)
        #expect(r.out.hasPrefix("\(page): 6 animations from 2 inputs, "), "\(r.out)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(!html.contains("http://") && !html.contains("https://"), "the page must not load anything")
        let sources = imageSources(html)
        #expect(sources.count == 12)
        // Each image twice: on light, then on dark.
        for k in stride(from: 0, to: sources.count, by: 2) { #expect(sources[k] == sources[k + 1]) }
        #expect(html.components(separatedBy: "class=\"stage light\"").count - 1 == 6)
        #expect(html.components(separatedBy: "class=\"stage dark\"").count - 1 == 6)
        #expect(try sources.map { try decodeDataURI($0).mime }.filter { $0 == "image/png" }.count == 4)

        let gif = try decodeDataURI(sources[0])
        #expect(gif.mime == "image/gif")
        let decodedGIF = try GIFDecoder.decode(gif.bytes)
        #expect(decodedGIF.width == 16 && decodedGIF.frames.count == 10)
        let webp = try decodeDataURI(sources[2])
        #expect(webp.mime == "image/webp")
        #expect(try WebPAnimationDecoder.decode(webp.bytes).width == 16)
        // The same bytes as a render.
        let rendered = wavegen(["render", tiny, "-o", folder.file("tiny.gif")])
        #expect(rendered.code == 0)
        #expect(try folder.bytes("tiny.gif") == gif.bytes)

        // The numbers.
        #expect(html.contains("<dt>size</dt><dd>16×16 px</dd>"))
        #expect(html.contains("<dt>frames</dt><dd>10 at 10 fps, 1 s loop</dd>"))
        #expect(html.contains("<dt>bytes</dt><dd>\(NumberText.grouped(gif.bytes.count)) bytes"))
        #expect(html.contains("<dt>size</dt><dd>74×64 px</dd>"))
        #expect(html.contains("<dt>frames</dt><dd>50 at 50 fps, 1 s loop</dd>"))
        #expect(html.contains("<figcaption>spinner.webp</figcaption>"))
    }

    @Test func aManifestShowsEveryOutputWithItsScaleAndBudget() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "presets/tiny.json")
        let manifest = try folder.writeFile("""
            {"jobs": [
              { "name": "icons", "preset": "presets/tiny.json", "output": "out/{name}-{variant}{scale}.{format}",
                "formats": ["gif", "webp"], "scales": [1, 2], "variants": {"light": {}, "dark <b>": {"background": "#121212"}},
                "maxBytes": {"webp": 10} }
            ]}
            """, at: "wavegen.json")
        let page = folder.file("p.html")
        let r = wavegen(["preview", folder.path, "-o", page, "-q"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.isEmpty)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(imageSources(html).count == 16)
        #expect(html.contains("<h2>jobs[0] (icons) <small>\(manifest) · preset presets/tiny.json</small></h2>"))
        #expect(html.contains("<figcaption>\(folder.path)/out/tiny-light@2x.webp</figcaption>"))
        #expect(html.contains("<figcaption>\(folder.path)/out/tiny-dark &lt;b&gt;.gif</figcaption>"))
        #expect(!html.contains("<b>"))
        // @2x images are shown at their size at scale 1.
        #expect(html.contains("32×32 px (@2x, shown at 16×16)"))
        #expect(html.contains("width=\"16\" height=\"16\""))
        #expect(!html.contains("width=\"32\""))
        #expect(html.contains("over the budget of 10"))
        // Nothing but the page is written.
        #expect(try folder.contents() == ["p.html", "presets", "wavegen.json"])
    }

    /// Control characters in a variant name and in a failed preset's key reach the page as U+FFFD
    /// or escaped, never raw.
    @Test func controlCharactersDoNotReachThePageRaw() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "presets/tiny.json")
        try folder.writeFile("{\"\\u0000\\u001b]0;x\\u0007\": 1}", at: "presets/bad.json")
        try folder.writeFile("""
            {"jobs": [
              { "name": "icons", "preset": "presets/tiny.json", "output": "out/{name}-{variant}.{format}",
                "formats": ["gif"], "variants": {"a\u{202E}b": {}} },
              { "name": "bad", "preset": "presets/bad.json", "output": "out/{name}.{format}", "formats": ["gif"] }
            ]}
            """, at: "wavegen.json")
        let page = folder.file("p.html")
        let r = wavegen(["preview", folder.path, "-o", page, "-q"])
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(!html.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(r.err)")
        #expect(html.contains("tiny-a\u{202E}b.gif"))
        #expect(html.contains("at \\u0000\\u001b]0;x\\u0007: unknown key"))

        // A control character in a variant's name is refused before any page is written (a
        // build would write it into a file name), and the message shows it escaped.
        try folder.writeFile("""
            {"jobs": [{ "name": "icons", "preset": "presets/tiny.json", "output": "out/{name}-{variant}.{format}",
                        "formats": ["gif"], "variants": {"a\\u0001\\u001fb": {}} }]}
            """, at: "wavegen.json")
        let refused = wavegen(["preview", folder.path, "-o", folder.file("q.html"), "-q"])
        #expect(refused.code == 65)
        #expect(!refused.err.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(refused.err.contains("{variant} would be \"a\\u0001\\u001fb\" (a variant's name), which holds a control character"), "\(refused.err)")
        #expect(!folder.hasFile("q.html"))
    }

    /// A Lottie output gets a card with its size and numbers but no picture: the page loads no
    /// player (and no script).
    @Test func aLottieOutputIsListedWithItsSize() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "presets/tiny.json")
        try folder.writeFile("""
            {"jobs": [{ "name": "tiny", "preset": "presets/tiny.json", "output": "out/{name}.{format}", "formats": ["gif", "lottie"] }]}
            """, at: "wavegen.json")
        let page = folder.file("p.html")
        let r = wavegen(["preview", folder.path, "-o", page, "-q"])
        #expect(r.code == 0, "\(r.err)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(imageSources(html).count == 2, "only the GIF is shown, on light and dark")
        #expect(!html.contains("<script"))
        let lottie = try RenderPipeline().render(folder.file("presets/tiny.json"), format: .lottie)
        let card = try #require(html.components(separatedBy: "out/tiny.json</figcaption>").dropFirst().first)
        #expect(card.contains("Lottie JSON: plays in lottie-web, lottie-android, lottie-ios and rlottie"))
        #expect(card.contains("<dt>format</dt><dd>Lottie</dd>"))
        #expect(card.contains("<dd>\(NumberText.grouped(lottie.count)) bytes"), "\(card.prefix(600))")
    }

    @Test func aFailedPresetGetsACardAndTheExitCode() throws {
        let folder = try TemporaryFolder()
        let bad = try folder.writeFile(#"{"fps": 0}"#, at: "bad.json")
        let page = folder.file("p.html")
        let r = wavegen(["preview", "spinner", bad, "-o", page])
        #expect(r.code == 65)
        #expect(r.errLines == ["\(bad):1:9: error: at fps: must be at least 0.1 and at most 240, got 0"], "\(r.err)")
        #expect(r.out.contains("3 animations from 2 inputs (3 failed)"), "\(r.out)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(imageSources(html).count == 6)
        #expect(html.contains("class=\"card failed\""))
        #expect(html.contains("at fps: must be at least 0.1"))
    }

    @Test func previewArguments() throws {
        let folder = try TemporaryFolder()
        let noOutput = wavegen(["preview", "classic"])
        #expect(noOutput.code == 64)
        #expect(noOutput.errLines.first == "Error: missing --output <file.html> (or --watch to serve the page live)")
        let nowhere = wavegen(["preview", "classic", "-o", folder.file("no/such/p.html")])
        #expect(nowhere.code == 73)
        let manifest = try folder.writeFile(#"{"jobs": [{"preset": "classic", "output": "a.gif"}, {"preset": "classic", "output": "a.gif"}]}"#, at: "m.json")
        let colliding = wavegen(["preview", manifest, "-o", folder.file("p.html")])
        #expect(colliding.code == 65)
        #expect(!folder.hasFile("p.html"))
    }

    /// The built executable in a folder: `build` and `preview` find ./wavegen.json themselves and
    /// print paths as given.
    @Test func theExecutableUsesTheManifestInTheCurrentFolder() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "tiny.json")
        let none = try runExecutable(["preview", "-o", "p.html"], in: folder)
        // As `build` does without a manifest: a missing input.
        #expect(none.code == 66)
        #expect(none.errLines.first == "wavegen.json: error: no such file (name a manifest or presets: wavegen preview path/to/wavegen.json -o preview.html)")
        let noManifest = try runExecutable(["build"], in: folder)
        #expect(noManifest.code == 66)
        #expect(noManifest.errLines == ["wavegen.json: error: no such file (name a manifest: wavegen build path/to/wavegen.json)"])

        try folder.writeFile(#"{"jobs": [{"preset": "tiny.json", "output": "out/{name}.{format}", "formats": ["gif", "webp"]}]}"#, at: "wavegen.json")
        let build = try runExecutable(["build"], in: folder)
        #expect(build.code == 0, "\(build.err)")
        #expect(build.outLines.count == 3)
        #expect(build.paths("written") == ["out/tiny.gif", "out/tiny.webp"])
        #expect(build.outLines[0].hasSuffix(" B  out/tiny.gif") && build.outLines[0].count == build.outLines[1].count - 1, "\(build.out)")
        #expect(build.outLines[2] == "2 outputs: 2 written, 0 unchanged, 0 over budget, 0 failed")
        let preview = try runExecutable(["preview", "-o", "p.html"], in: folder)
        #expect(preview.code == 0, "\(preview.err)")
        #expect(preview.out.hasPrefix("p.html: 2 animations from wavegen.json, "))
    }

    /// Opens a preview of the example manifest and some presets in headless Chromium: every image
    /// must decode, and the screenshot must show the page.
    @Test(.enabled(if: headlessChromium != nil, "chromium is not installed"))
    func everyImageDecodesInChromium() throws {
        let folder = try TemporaryFolder()
        let example = BuildExampleTests.example.appendingPathComponent("wavegen.json").path
        let page = folder.file("preview.html")
        let r = wavegen(["preview", "classic", "orb", example, "-o", page])
        #expect(r.code == 0, "\(r.err)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let images = imageSources(html).count
        #expect(images == 2 * (6 + 25))

        // A probe that counts the images the browser decoded once the page has loaded.
        let probe = """
            <script>
            window.addEventListener("load", function () {
              var n = 0;
              for (var i = 0; i < document.images.length; i++) {
                if (document.images[i].complete && document.images[i].naturalWidth > 0) n++;
              }
              document.title = "decoded " + n + " of " + document.images.length;
            });
            </script>
            </body>
            """
        let probed = try folder.writeFile(html.replacingOccurrences(of: "</body>", with: probe), at: "probe.html")
        let dom = try runChromium(["--dump-dom", "--virtual-time-budget=10000", "file://" + probed], in: folder)
        #expect(dom.contains("<title>decoded \(images) of \(images)</title>"), "\(dom.prefix(300))")

        let shot = folder.file("preview.png")
        _ = try runChromium(["--screenshot=\(shot)", "--window-size=1400,1800", "--virtual-time-budget=5000", "file://" + page], in: folder)
        let png = try PNGImage(decoding: try folder.bytes("preview.png"), maximumPixels: 1 << 24)
        #expect(png.width == 1400 && png.height == 1800)
        // The page shows dark stages (#121212) and light ones (#FFFFFF).
        var dark = 0, white = 0
        for p in stride(from: 0, to: png.rgba.count, by: 4) {
            let rgb = (png.rgba[p], png.rgba[p + 1], png.rgba[p + 2])
            if rgb == (0x12, 0x12, 0x12) { dark += 1 }
            if rgb == (0xFF, 0xFF, 0xFF) { white += 1 }
        }
        #expect(dark > 10_000, "no dark stages in the screenshot")
        #expect(white > 10_000, "no light stages in the screenshot")
        // Kept for a look when the environment asks for it.
        if let keep = ProcessInfo.processInfo.environment["WAVEGEN_PREVIEW_SCREENSHOT"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(atPath: shot, toPath: keep)
        }
    }
}
