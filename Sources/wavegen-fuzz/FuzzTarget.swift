import Foundation
import WaveKit
import WavePNG
import WaveRender
import WaveTestSupport

/// What one fuzz input goes through: the JSON parser, the color parser, a `--set key=value`
/// override of a bundled preset, the preset loader (from a file, as `wavegen render FILE` reads it:
/// size limit, `extends`, rider image, decoding), the loop planner and a few frames of a small
/// canvas, the build-manifest reader and planner, the PNG decoder when the input looks like a PNG,
/// and the GIF encoder on frames and settings drawn from the input (`GIFEncoderCheck`).
/// Every failure must come back as an error; a trap, a hang or a runaway allocation is a finding.
enum FuzzTarget {
    /// A private folder the input is written into, once as a preset and once as a manifest.
    /// It is removed when the process exits (a static is never deinitialized, and libFuzzer ends
    /// the process with `exit`).
    static let folder: String = {
        guard let made = try? TemporaryFolder("wavegen-fuzz") else { fatalError("cannot make a temporary folder") }
        scratch = made
        atexit { FuzzTarget.scratch = nil }
        return made.path
    }()
    nonisolated(unsafe) static var scratch: TemporaryFolder?

    /// The loader `wavegen` uses, with rider images decoded by libpng under the same pixel limit.
    static let loader = PresetLoader.standard

    /// Canvases up to this many pixels also get frames rendered.
    static let renderedPixels = 48 * 48

    static func run(_ bytes: [UInt8]) {
        _ = try? JSONParser.parse(bytes)
        if let text = String(validating: bytes, as: UTF8.self) {
            _ = KeyPathExpression(parsing: text)
            if RGBA(parsing: text) == nil { _ = RGBA.advice(for: text) }
            // As a --set override of a bundled preset.
            if let override = PresetOverride(parsing: text), let config = try? loader.load("classic", overrides: [override]) {
                _ = try? LoopPlanner.plan(config)
            }
        }

        let preset = folder + "/preset.json", manifest = folder + "/wavegen.json"
        write(bytes, to: preset)
        write(bytes, to: manifest)

        if let config = try? loader.load(preset), let plan = try? LoopPlanner.plan(config) {
            if config.width * config.height <= renderedPixels {
                for format in OutputFormat.allCases {
                    let renderer = FrameRenderer(config: config, plan: plan, format: format)
                    var cache = ColorCache()
                    var frame: [UInt8] = []
                    let count = renderer.timing.frameCount
                    for k in Set([0, count / 2, count - 1]) where k >= 0 && k < count {
                        renderer.render(frame: k, into: &frame, cache: &cache)
                    }
                }
            }
        }

        if let m = try? BuildManifest.load(manifest) {
            _ = try? BuildPlan.make(m, overrides: [])
        }

        // PNGImage refuses anything without the PNG signature before libpng sees it.
        _ = try? PNGImage(decoding: bytes, maximumPixels: PresetLoader.maximumImagePixels)

        if let problem = GIFEncoderCheck.problem(bytes) { fatalError(problem) }
    }

    static func write(_ bytes: [UInt8], to path: String) {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { fatalError("cannot write \(path)") }
    }
}

/// The libFuzzer entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func wavegenFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTarget.run(bytes)
    return 0
}
