import Foundation
import WaveKit
import WavePNG
import WaveReference

/// `wavegen-bench reference`: the slow segment reference (`SegmentReference`) as RGBA PNG frames,
/// the judge of scripts/bench/compare-rd.
enum ReferenceCommand {
    static let usage = """
        usage: wavegen-bench reference PRESET --frames DIR [--target gif|rgba] [--threads N] [--subcolumns N]

        Renders every frame of PRESET's loop (a bundled name or a file) with the slow reference: exact in y,
        16 samples in x (--subcolumns N: N), layers composited per covered segment. Writes DIR/frame-0000.png … as
        `wavegen render --frames` names them: 8-bit straight RGBA, as many frames as the target format
        plays. With --target gif (the default) partly transparent pixels are stored as the preset's
        gif.edges says (matte or cut), as a GIF must; with rgba they keep their alpha. Presets with a
        rider or a label, and gif.edges "dither", are refused.
        """

    static func run(_ args: [String]) throws {
        var preset: String?, directory: String?, target = "gif", threads = 0, subcolumns = 16
        var a = ArgumentCursor(args)
        while let arg = a.next() {
            switch arg {
            case "--frames": directory = try a.value()
            case "--target":
                target = try a.value()
                guard target == "gif" || target == "rgba" else { throw BenchError("--target expects gif or rgba, got '\(target)'") }
            case "--threads": threads = try a.count(atLeast: 0)
            case "--subcolumns": subcolumns = try a.count(atLeast: 1)
            case "--help", "-h":
                print(usage)
                return
            case _ where arg.hasPrefix("-"): throw BenchError("unknown argument '\(arg)'\n\(usage)")
            default:
                guard preset == nil else { throw BenchError("one preset only, got '\(preset!)' and '\(arg)'") }
                preset = arg
            }
        }
        guard let preset, let directory else { throw BenchError("reference needs a preset and --frames DIR\n\(usage)") }

        let config = try Pipeline.load(preset)
        let plan = try Pipeline.plan(config)
        let reference: SegmentReference
        do {
            reference = try SegmentReference(config: config, plan: plan, subcolumns: subcolumns)
        } catch {
            throw BenchError("\(preset): \(error.description)")
        }
        let gif = target == "gif"
        if gif, config.gif.edges == .dither, config.background.a < 255 {
            throw BenchError("\(preset): gif.edges \"dither\" is not drawn by the reference")
        }
        let count = plan.timing(for: gif ? .gif : .webp).frameCount
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)

        let start = now()
        let workers = threads == 0 ? ProcessInfo.processInfo.activeProcessorCount : threads
        let failure = Failure()
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            for k in stride(from: w, to: count, by: workers) where failure.message == nil {
                let colors = reference.render(frame: k, of: count)
                var rgba = [UInt8](repeating: 0, count: colors.count * 4)
                for (p, c) in colors.enumerated() {
                    let s = gif ? reference.gifStored(c)! : c.straight
                    (rgba[4 * p], rgba[4 * p + 1], rgba[4 * p + 2], rgba[4 * p + 3]) = (s.r, s.g, s.b, s.a)
                }
                let path = directory + "/" + String(format: "frame-%04d.png", k)
                do {
                    let bytes = try PNGImage(width: config.width, height: config.height, rgba: rgba).encoded()
                    try Data(bytes).write(to: URL(fileURLWithPath: path))
                } catch {
                    failure.set("\(path): \(error)")
                }
            }
        }
        if let message = failure.message { throw BenchError(message) }
        print("\(count) frames, \(config.width)×\(config.height), \(target) in \(directory) (\(String(format: "%.1f", now() - start)) s)")
    }

    /// The first error any worker met.
    final class Failure: @unchecked Sendable {
        private let lock = NSLock()
        private var first: String?
        var message: String? { lock.withLock { first } }
        func set(_ m: String) { lock.withLock { if first == nil { first = m } } }
    }
}
