import Foundation
import Testing
import WaveGIF
import WaveKit
import WaveRender
import WaveTestSupport
@testable import WaveBuild

/// The build engine as a program calls it: a manifest run in a temporary folder, its typed results
/// checked against the files on disk and against renders made apart from the build.
@Suite struct ManifestBuildTests {
    static let preset = """
        {"size": [16, 16], "fps": 10, "background": "#FFFFFF", "layers": [{"color": "#1E88E5", "speed": 1}]}
        """

    func project(jobs: String) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(Self.preset, to: "presets/blue.json")
        try folder.write(Self.preset.replacingOccurrences(of: "#1E88E5", with: "#43A047"), to: "presets/green.json")
        try folder.write("{\"jobs\": [\(jobs)]}", to: "wavegen.json")
        return folder
    }

    static let twoJobs = """
        {"name": "blue", "preset": "presets/blue.json", "output": "out/{name}.{format}", "formats": ["gif", "webp"]},
        {"name": "green", "preset": "presets/green.json", "output": "out/{name}.{format}", "formats": ["gif"]}
        """

    func runBuild(_ folder: TemporaryFolder, check: Bool = false, prune: Bool = false) throws -> (ManifestBuild, ManifestBuild.Outcome, [ManifestBuild.Event]) {
        let manifest = try BuildManifest.loadForCommand(folder.file("wavegen.json"))
        let build = try ManifestBuild(manifest: manifest, options: .init(check: check, prune: prune, workers: 2))
        let events = EventLog()
        let outcome = try build.run { events.append($0) }
        return (build, outcome, events.all)
    }

    @Test func writesThenFindsEverythingUpToDate() throws {
        let folder = try project(jobs: Self.twoJobs)
        let (build, first, _) = try runBuild(folder)
        #expect(build.plan.outputs.map(\.path) == ["out/blue.gif", "out/blue.webp", "out/green.gif"].map { folder.file($0) })
        #expect(first.outputs.map(\.status) == [.written, .written, .written])
        #expect(first.code == .success)
        #expect(first.counts.written == 3 && first.counts.total == 3)
        // Each file holds what an independent render of its output makes, and decodes as a loop.
        for (output, result) in zip(build.plan.outputs, first.outputs) {
            let onDisk = try folder.bytes(String(output.path.dropFirst(folder.path.count + 1)))
            let rendered = try build.outputs.render(output, threads: 0).get()
            #expect(onDisk == rendered.bytes, "\(output.path)")
            #expect(result.bytes == onDisk.count)
            if output.format == .gif {
                let gif = try GIFDecoder.decode(onDisk)
                #expect(gif.width == 16 && gif.height == 16)
                #expect(gif.frames.count == rendered.frames)
            }
        }
        #expect(try folder.text("wavegen.lock").contains("out/blue.gif"))

        let (_, second, _) = try runBuild(folder)
        #expect(second.outputs.map(\.status) == [.unchanged, .unchanged, .unchanged])
        #expect(second.counts.written == 0 && second.code == .success)
    }

    @Test func reportsMissingModifiedAndOrphanedOutputsWhenChecking() throws {
        let folder = try project(jobs: Self.twoJobs)
        _ = try runBuild(folder)
        try folder.write([0x47, 0x49, 0x46], to: "out/blue.gif")
        try FileManager.default.removeItem(atPath: folder.file("out/blue.webp"))
        try folder.write("{\"jobs\": [\(Self.twoJobs.components(separatedBy: "},\n")[0])}]}", to: "wavegen.json")
        let (_, outcome, events) = try runBuild(folder, check: true)
        #expect(outcome.outputs.map(\.status) == [.modified, .missing])
        #expect(outcome.orphans == [folder.file("out/green.gif")])
        #expect(outcome.code == .failure)
        #expect(outcome.counts.outOfDate == 3)
        // Checking writes nothing.
        #expect(try folder.bytes("out/blue.gif") == [0x47, 0x49, 0x46])
        #expect(events.contains { if case let .orphaned(path) = $0 { return path == folder.file("out/green.gif") } else { return false } })
    }

    @Test func prunesWhatNoJobPlansAnyMore() throws {
        let folder = try project(jobs: Self.twoJobs)
        _ = try runBuild(folder)
        try folder.write("{\"jobs\": [\(Self.twoJobs.components(separatedBy: "},\n")[0])}]}", to: "wavegen.json")
        let (_, outcome, _) = try runBuild(folder, prune: true)
        #expect(outcome.pruned == [folder.file("out/green.gif")])
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/green.gif")))
        #expect(outcome.outputs.map(\.status) == [.unchanged, .unchanged])
        #expect(try !folder.text("wavegen.lock").contains("green.gif"))
    }

    @Test func aMissingPresetFailsItsOutputsWithOneLocatedError() throws {
        let folder = try project(jobs: """
            {"name": "gone", "preset": "presets/gone.json", "output": "out/{format}", "formats": ["gif", "webp"]},
            {"name": "blue", "preset": "presets/blue.json", "output": "out/{name}.{format}", "formats": ["gif"]}
            """)
        let (_, outcome, events) = try runBuild(folder)
        #expect(outcome.outputs.map(\.status) == [.failed, .failed, .written])
        #expect(outcome.outputs[0].error?.problems.allSatisfy { $0.isInDocument } == true && outcome.outputs[0].code == .noInput)
        #expect(outcome.code == .noInput)
        let errors = events.compactMap { if case let .error(line) = $0 { return line } else { return nil } }
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.contains("gone.json") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/gif")))
    }

    @Test func presetsNamedAloneAreASetOfOutputsToo() throws {
        let folder = try project(jobs: "")
        let set = try OutputSet.presets([folder.file("presets/blue.json"), "no-such-preset"], formats: [.gif, .svg], overrides: [])
        #expect(set.source == .presets([folder.file("presets/blue.json"), "no-such-preset"]))
        #expect(set.outputs.map(\.format) == [.gif, .svg, .gif, .svg])
        var printed: [String] = []
        let results = set.make(workers: 2, printError: { printed.append($0) }, problems: { (r: Result<RenderedOutput, WaveError>) in
            if case let .failure(e) = r { return e }
            return nil
        }, work: { set.render($0, threads: 0) })
        #expect(results.count == 4)
        #expect((try? results[0].get().bytes.isEmpty) == false)
        #expect((try? results[1].get().bytes.isEmpty) == false)
        // The unknown preset stops both of its outputs; its problem is printed once.
        #expect(printed.count == 1, "\(printed)")
    }

    @Test func presetsNamedAloneCarryNoManifest() throws {
        let folder = try project(jobs: Self.twoJobs)
        let set = try OutputSet.presets([folder.file("presets/blue.json"), "no-such-preset"], formats: [.gif], overrides: [])
        #expect(set.plan.manifest == nil)
        guard case let .presets(jobs) = set.plan.origin else {
            Issue.record("a single-preset set's plan comes from a manifest")
            return
        }
        #expect(jobs.map(\.preset) == [folder.file("presets/blue.json"), "no-such-preset"])
        // Its problems read as before: said at the job on the command line.
        guard case let .failure(error) = set.plan.configs[1].result else {
            Issue.record("an unknown preset loaded")
            return
        }
        #expect(error.printedLines.first?.hasPrefix("(command line): error: at jobs[1].preset: no preset \"no-such-preset\"") == true,
                "\(error.printedLines)")
        // A manifest's set carries its manifest.
        let manifest = try BuildManifest.loadForCommand(folder.file("wavegen.json"))
        #expect(try OutputSet.manifest(manifest, overrides: []).plan.manifest?.file == manifest.file)
    }
}

/// Events collected from a build's callbacks.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [ManifestBuild.Event] = []
    func append(_ e: ManifestBuild.Event) { lock.withLock { events.append(e) } }
    var all: [ManifestBuild.Event] { lock.withLock { events } }
}
