import Foundation
import Testing
import WaveTestSupport

/// A render stopped by SIGTERM or SIGINT (Ctrl-C) part way through: the process ends by that
/// signal (a shell shows 143 or 130), the file it was replacing keeps its bytes, and no temporary
/// file is left, neither beside the output nor among the frames of --frames. Serialized: each test
/// runs a render that would otherwise take minutes, and they would slow each other down.
@Suite(.serialized) struct HardeningInterruptTests {
    static let signals: [Int32] = [SIGTERM, SIGINT]

    /// How long the render runs before it is signalled.
    static let head: TimeInterval = 1.5

    /// classic at 2048 × 2048 pixels for 300 frames, over an existing output: the signal comes
    /// while frames are being rendered and encoded.
    @Test(arguments: signals)
    func interruptedRenderKeepsThePreviousFile(signal: Int32) throws {
        let folder = try TemporaryFolder("wavegen-hardening")
        let previous = Array("the previous render, which must survive".utf8)
        try Data(previous).write(to: folder.url.appendingPathComponent("out.gif"))

        let run = try HardeningProcess.start(["render", "classic", "--size", "1024x1024", "--scale", "2", "--set", "duration=6",
                                              "-o", "out.gif", "-q"], in: folder.url)
        Thread.sleep(forTimeInterval: HardeningInterruptTests.head)
        try #require(!run.hasEnded, "the render ended within \(HardeningInterruptTests.head) s: \(run.wait(timeout: 1).err)")
        kill(run.pid, signal)
        let r = run.wait(timeout: 20)

        #expect(!r.timedOut, "still running 20 s after the signal")
        #expect(r.signal == signal, "ended with status \(r.status), not by signal \(signal): \(r.err)")
        #expect(r.status == 128 + signal)
        #expect(r.out.isEmpty)
        #expect(try Array(Data(contentsOf: folder.url.appendingPathComponent("out.gif"))) == previous)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["out.gif"])
    }

    /// With --frames every frame is written through a temporary file, so the signal handler is
    /// installed and a temporary may exist when the signal comes: it must be removed.
    @Test(arguments: signals)
    func interruptedRenderWithFramesLeavesNoTemporaryFile(signal: Int32) throws {
        let folder = try TemporaryFolder("wavegen-hardening")
        let previous = Array("the previous render, which must survive".utf8)
        try Data(previous).write(to: folder.url.appendingPathComponent("out.webp"))
        let frames = folder.url.appendingPathComponent("frames").path

        let run = try HardeningProcess.start(["render", "classic", "--size", "256x256", "--set", "duration=6",
                                              "-o", "out.webp", "--frames", "frames", "-q"], in: folder.url)
        let deadline = Date().addingTimeInterval(15)
        var written: [String] = []
        while Date() < deadline, !run.hasEnded {
            written = ((try? FileManager.default.contentsOfDirectory(atPath: frames)) ?? []).filter { $0.hasPrefix("frame-") }
            if written.count >= 3 { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        try #require(!run.hasEnded, "the render ended before it was signalled: \(run.wait(timeout: 1).err)")
        try #require(written.count >= 3, "no frames written within 15 s")
        kill(run.pid, signal)
        let r = run.wait(timeout: 20)

        #expect(!r.timedOut, "still running 20 s after the signal")
        #expect(r.signal == signal, "ended with status \(r.status), not by signal \(signal): \(r.err)")
        #expect(try Array(Data(contentsOf: folder.url.appendingPathComponent("out.webp"))) == previous)
        let top = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(top == ["frames", "out.webp"])
        let left = try FileManager.default.contentsOfDirectory(atPath: frames)
        #expect(HardeningCorpus.strays(in: left).isEmpty, "temporary frames left: \(HardeningCorpus.strays(in: left))")
        #expect(left.allSatisfy { $0.hasPrefix("frame-") && $0.hasSuffix(".png") }, "\(left.sorted())")
    }
}
