import Foundation
import Testing
import WaveTestSupport
import WaveKit

/// Themed and live SVGs as the command line writes them: what the files hold, their sizes against
/// the budgets, and the errors for what cannot be live. Their pixels in a browser are checked by
/// scripts/checks/check-svg-live.
@Suite struct LiveSVGTests {
    static let stillPresets = ["boat", "classic", "dark", "orb"]
    static let movingPresets = ["progress-bar", "spinner"]

    func render(_ args: [String], in folder: TemporaryFolder, to name: String) throws -> String {
        let r = wavegen(["render"] + args + ["-o", folder.file(name), "-q"])
        #expect(r.code == 0, "\(r.err)")
        return String(decoding: try folder.bytes(name), as: UTF8.self)
    }

    @Test(arguments: ["classic", "orb"]) func aDarkTwinCostsAtMost400Bytes(_ preset: String) throws {
        let folder = try TemporaryFolder()
        let themed = try render([preset], in: folder, to: "themed.svg")
        let light = try render([preset, "--set", "dark=null"], in: folder, to: "light.svg")
        #expect(themed.contains("@media(prefers-color-scheme:dark)"))
        #expect(themed.contains("[data-theme=dark]") && themed.contains("[data-theme=light]"))
        #expect(!light.contains("prefers-color-scheme") && !light.contains("data-theme"))
        #expect(themed.utf8.count - light.utf8.count <= 400, "\(themed.utf8.count) − \(light.utf8.count)")
    }

    /// Every colour the preset uses is a property by its documented name, defaulting to the colour.
    @Test func coloursAreCustomPropertiesWithTheLightDefaults() throws {
        let folder = try TemporaryFolder()
        let svg = try render(["spinner"], in: folder, to: "spinner.svg")
        for expected in ["fill:var(--wave-1,#9fa8da)", "fill:var(--wave-2,#3f51b5)", "fill:var(--border,#3949ab)"] {
            #expect(svg.contains(expected), "\(expected)")
        }
        #expect(!svg.contains("--background"), "a transparent background is not drawn")
        let orb = try render(["orb"], in: folder, to: "orb.svg")
        for name in ["--_1", "--label", "--label-on-water"] { #expect(orb.contains(name), "\(name)") }
    }

    /// `--theme dark` writes the twin's colours as the defaults, with no switch left to make.
    @Test func darkThemeSVGHasNoSwitch() throws {
        let folder = try TemporaryFolder()
        let svg = try render(["classic", "--theme", "dark"], in: folder, to: "dark.svg")
        #expect(svg.contains("fill:var(--background,#0b1622)"))
        #expect(!svg.contains("prefers-color-scheme"))
    }

    @Test(arguments: stillPresets) func liveSVGStaysWithinItsBudget(_ preset: String) throws {
        let folder = try TemporaryFolder()
        let live = try render([preset, "--live"], in: folder, to: "live.svg")
        let plain = try render([preset], in: folder, to: "plain.svg")
        #expect(live.contains("@property") && live.contains("var(--level,"))
        #expect(!live.contains("<script"))
        #expect(!live.contains("'<"), "a '<' in the style would open an element in XML and in inline SVG")
        if preset != "boat" {
            #expect(live.utf8.count <= 2 * plain.utf8.count + 3 * 1024, "\(live.utf8.count) against \(plain.utf8.count)")
        }
    }

    /// A live SVG in any fill direction: sideways the level moves the front along the fill axis
    /// (scripts/checks/check-svg-live holds the picture to the raster in Chromium).
    @Test func liveFollowsTheFillDirection() throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", "progress-bar-horizontal", "-o", folder.file("bar.svg"), "--live", "--set", "level=0.5"])
        #expect(r.code == 0, "\(r.errLines)")
        let svg = try String(contentsOfFile: folder.file("bar.svg"), encoding: .utf8)
        // The level's shift spans the fill axis: the water box's 232 px width (240 less the ring
        // and gap, 4 px a side), not its 24 px height.
        #expect(svg.contains("*232px)") && !svg.contains("*24px)"), "the level shift is not along the bar's width")
        #expect(svg.contains("transform=\"matrix("))
    }

    @Test func liveTransitionComesFromThePreset() throws {
        let folder = try TemporaryFolder()
        let slow = try folder.write(#"{"extends": "classic", "live": {"transition": 1.5, "easing": "linear"}}"#, to: "slow.json")
        #expect(try render([slow, "--live"], in: folder, to: "slow.svg").contains("1.5s linear"))
        #expect(try render(["classic", "--live"], in: folder, to: "default.svg").contains(".6s ease-out"))
        let instant = try folder.write(#"{"extends": "classic", "live": {"transition": 0}}"#, to: "instant.json")
        #expect(!(try render([instant, "--live"], in: folder, to: "instant.svg").contains("transition")))
        // Outside a live SVG the key changes nothing.
        #expect(!(try render([slow], in: folder, to: "plain.svg").contains("@property")))
    }

    @Test func badLiveKeysAreErrorsAtTheirPositions() throws {
        let folder = try TemporaryFolder()
        let bad = try folder.write("{\n  \"live\": {\"transition\": -1, \"easing\": \"bouncy\", \"speed\": 1}\n}\n", to: "bad.json")
        let r = wavegen(["render", bad, "-o", folder.file("x.svg"), "-q"])
        #expect(r.code == 65)
        #expect(r.errLines.contains { $0.hasPrefix("\(bad):2:") && $0.contains("at live.transition: must be at least 0 and at most 60, got -1") }, "\(r.err)")
        #expect(r.errLines.contains { $0.contains("at live.easing: \"bouncy\" is not one of") }, "\(r.err)")
        #expect(r.errLines.contains { $0.contains("at live.speed: unknown key") }, "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.svg")))
    }

    @Test(arguments: ["gif", "webp", "png", "json"]) func liveIsAUsageErrorForOtherFormats(_ ext: String) throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", "orb", "--live", "-o", folder.file("x.\(ext)")])
        #expect(r.code == 64)
        #expect(r.errLines.first?.hasPrefix("Error: --live writes a live SVG;") == true, "\(r.err)")
        #expect(try folder.contents().isEmpty)
    }

    @Test(arguments: movingPresets) func liveRefusesAMovingLevel(_ preset: String) throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", preset, "--live", "-o", folder.file("x.svg")])
        #expect(r.code == 64)
        #expect(r.errLines.first?.contains("the preset's level must be a number, not an animation") == true, "\(r.err)")
        #expect(try folder.contents().isEmpty)
        // With a still level it is live.
        #expect(try render([preset, "--live", "--level", "0.5"], in: folder, to: "still.svg").contains("@property"))
    }

    @Test func manifestJobsWriteLiveSVGs() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write(#"{"jobs": [{"preset": "orb", "output": "orb-live.svg", "live": true}, {"preset": "orb", "output": "orb.svg"}]}"#, to: "wavegen.json")
        let r = wavegen(["build", manifest, "-q"])
        #expect(r.code == 0, "\(r.err)")
        let live = try render(["orb", "--live"], in: folder, to: "cli-live.svg")
        #expect(try folder.bytes("orb-live.svg") == Array(live.utf8))
        #expect(try folder.bytes("orb.svg") != Array(live.utf8))
        // Built again, both are up to date; the live flag is part of what decides it.
        let again = wavegen(["build", manifest, "--check"])
        #expect(again.code == 0, "\(again.out)\(again.err)")
    }

    @Test func manifestLiveNeedsSVGFormats() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write(#"{"jobs": [{"preset": "orb", "output": "orb.{format}", "formats": ["svg", "gif"], "live": true}]}"#, to: "wavegen.json")
        let r = wavegen(["build", manifest])
        #expect(r.code == 65)
        #expect(r.errLines.first?.contains("at jobs[0].live: writes live SVGs only, but the job writes GIF") == true, "\(r.err)")
        let notBool = try folder.write(#"{"jobs": [{"preset": "orb", "output": "orb.svg", "live": "yes"}]}"#, to: "b.json")
        let s = wavegen(["build", notBool])
        #expect(s.code == 65)
        #expect(s.errLines.first?.contains("at jobs[0].live: expected true") == true, "\(s.err)")
    }
}
