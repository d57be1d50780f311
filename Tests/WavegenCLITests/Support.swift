import Foundation
import Testing
import WaveKit
import WavegenCLI
import WaveBuild
import WavePreview
import WaveTestSupport

/// Collects what a command prints.
final class CapturedConsole: @unchecked Sendable {
    private let lock = NSLock()
    private var outText = ""
    private var errText = ""
    private var outData: [UInt8] = []
    /// Whether the console claims stdout is a terminal.
    var outIsTerminal = false

    var out: String { lock.withLock { outText } }
    var err: String { lock.withLock { errText } }
    var outBytes: [UInt8] { lock.withLock { outData } }

    var console: Console {
        Console(out: { s in self.lock.withLock { self.outText += s } },
                err: { s in self.lock.withLock { self.errText += s } },
                outBytes: { b in self.lock.withLock { self.outData += b } },
                outIsTerminal: outIsTerminal)
    }
}

/// The outcome of one command line.
struct RunResult {
    var code: Int32
    var out: String
    var err: String

    var errLines: [String] { err.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty } }
    var outLines: [String] { out.split(separator: "\n").map(String.init) }
}

/// Runs `wavegen args` in this process.
func wavegen(_ args: [String]) -> RunResult {
    let captured = CapturedConsole()
    let code = Wavegen.run(args, console: captured.console)
    return RunResult(code: code, out: captured.out, err: captured.err)
}

/// Files a failed atomic write could leave behind.
func strayTemporaries(_ names: [String]) -> [String] {
    names.filter { $0.hasPrefix(".") && $0.hasSuffix(".tmp") }
}

/// What a browser shows for a frame of GIF palette indices.
func gifRGBA(_ indices: [UInt8], _ palette: Palette) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(indices.count * 4)
    for i in indices {
        if Int(i) == palette.transparentIndex {
            out += [0, 0, 0, 0]
        } else {
            let c = palette.colors[Int(i)]
            out += [c.r, c.g, c.b, 255]
        }
    }
    return out
}

/// The RGBA of a frame of palette indices (WebP and PNG keep alpha as is).
func rgba(_ indices: [UInt8], _ palette: Palette) -> [UInt8] {
    var out: [UInt8] = []
    palette.expand(indices, into: &out)
    return out
}

/// Every frame a renderer draws, in order.
func renderedFrames(_ renderer: FrameRenderer, only: [Int]? = nil) -> [[UInt8]] {
    var cache = ColorCache()
    return (only ?? Array(0..<renderer.timing.frameCount)).map { k in
        var frame: [UInt8] = []
        renderer.render(frame: k, into: &frame, cache: &cache)
        return frame
    }
}

/// The `wavegen` executable built beside the test bundle, if there is one (`ChildProcess.wavegen`).
let wavegenExecutable: URL? = ChildProcess.wavegen.map { URL(fileURLWithPath: $0) }

/// Runs the built `wavegen` binary in `folder` (`ChildProcess`). With `fileSizeLimit` (in
/// `ulimit -f` blocks) it runs under that limit with SIGXFSZ ignored, so a write past the limit
/// fails with EFBIG instead of killing the process.
func runExecutable(_ args: [String], in folder: TemporaryFolder, fileSizeLimit: Int? = nil) throws -> RunResult {
    let r = try ChildProcess.runWavegen(args, in: folder.path, limits: ChildProcess.Limits(fileSizeBlocks: fileSizeLimit))
    return RunResult(code: r.status, out: r.out, err: r.err)
}
