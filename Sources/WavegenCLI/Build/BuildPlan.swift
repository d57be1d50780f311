import Foundation
import WaveKit

/// A manifest expanded into its outputs: every job's matrix (variants × levels × scales ×
/// formats) in manifest order, each output's path, and the presets loaded and planned.
struct BuildPlan: Sendable {
    /// One file the build produces.
    struct Output: Sendable {
        /// Position in `outputs` (manifest order).
        var index: Int
        var job: BuildManifest.Job
        var variant: String?
        var level: Double?
        var scale: Double?
        var format: OutputFormat
        /// The path as shown and written: resolved against the manifest's folder.
        var path: String
        /// The path made absolute and normalised, for collision checks.
        var key: String
        /// Index into `configs` (shared by the formats of one variant/level/scale).
        var config: Int

        var budget: Int? { job.budget.limit(for: format) }

        /// "webp @2x, variant dark": what sets this output apart within its job.
        var descriptor: String {
            var parts = [format.rawValue + (scale.map { $0 == 1 ? " @1x" : " " + OutputTemplate.scaleText($0) } ?? "")]
            if let variant { parts.append("variant \(variant)") }
            if let level { parts.append("level \(JSONNode(.number(level)).serialized())") }
            return parts.joined(separator: ", ")
        }
    }

    /// A loaded and planned preset, or why it could not be.
    struct Config: Sendable {
        var result: Result<Loaded, Failure>
    }

    struct Loaded: Sendable {
        var config: WaveConfig
        var plan: LoopPlan
    }

    /// Lines to print (without the job and output prefix) and the exit code they stand for.
    struct Failure: Error, Sendable {
        var code: ExitCode
        var lines: [String]
        /// The lines are document problems in the compiler form, printed as they are.
        var located = false

        init(code: ExitCode, lines: [String], located: Bool = false) {
            self.code = code
            self.lines = lines
            self.located = located
        }

        init(_ error: CommandError) {
            self.init(code: error.code, lines: error.lines, located: error.located)
        }
    }

    var manifest: BuildManifest
    var outputs: [Output]
    var configs: [Config]
    /// Loop-planner warnings, already prefixed with their job.
    var warnings: [String]

    /// Expands `manifest`. Collisions (two outputs with one path) are a manifest error (exit 65);
    /// a preset that cannot be loaded only fails its own outputs.
    static func make(_ manifest: BuildManifest, overrides cli: [PresetOverride], checkCollisions: Bool = true) throws(CommandError) -> BuildPlan {
        let loader = PresetOptions.loader
        var outputs: [Output] = []
        var configs: [Config] = []
        var warnings: [String] = []
        for job in manifest.jobs {
            let presetName = self.presetName(job, loader: loader)
            for variant in job.variants.map({ $0.map(Optional.some) }) ?? [nil] {
                for level in job.levels.map({ $0.map(Optional.some) }) ?? [nil] {
                    for scale in job.scales.map({ $0.map(Optional.some) }) ?? [nil] {
                        let configIndex = configs.count
                        let config = load(job, variant: variant, level: level, scale: scale, cli: cli, manifest: manifest, loader: loader)
                        if case let .success(loaded) = config.result {
                            for w in loaded.plan.warnings { warnings.append("\(job.label): \(loaded.config.name): \(w)") }
                        }
                        configs.append(config)
                        for format in job.formats ?? [] {
                            var values: [OutputTemplate.Field: String] = [
                                .name: presetName, .scale: OutputTemplate.scaleText(scale), .format: format.rawValue,
                            ]
                            if let variant { values[.variant] = variant.name }
                            if let level { values[.level] = OutputTemplate.levelText(level) }
                            let path = BuildManifest.resolve(job.output.render(values), in: manifest.directory)
                            outputs.append(Output(index: outputs.count, job: job, variant: variant?.name, level: level, scale: scale,
                                                  format: format, path: path, key: normalised(path), config: configIndex))
                        }
                    }
                }
            }
        }
        if checkCollisions { try self.checkCollisions(outputs, manifest: manifest) }
        return BuildPlan(manifest: manifest, outputs: outputs, configs: configs, warnings: warnings)
    }

    /// The `{name}` of a job: its preset's `name`, or the name its file gives it.
    static func presetName(_ job: BuildManifest.Job, loader: PresetLoader) -> String {
        if let resolved = try? loader.resolve(job.preset) {
            if case let .string(s)? = resolved.root["name"]?.value { return s }
            return resolved.defaultName
        }
        let base = (job.presetText as NSString).lastPathComponent
        return base.hasSuffix(".json") ? String(base.dropLast(5)) : base
    }

    static func normalised(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: absolute).standardizedFileURL.path
    }

    static func checkCollisions(_ outputs: [Output], manifest: BuildManifest) throws(CommandError) {
        var first: [String: Output] = [:]
        var problems: [DocumentProblem] = []
        for o in outputs {
            guard let earlier = first[o.key] else { first[o.key] = o; continue }
            var hint = ""
            if earlier.job.index == o.job.index {
                var fields: [String] = []
                if earlier.format != o.format { fields.append("{format}") }
                if earlier.scale != o.scale { fields.append("{scale}") }
                if earlier.variant != o.variant { fields.append("{variant}") }
                if earlier.level.map(OutputTemplate.levelText) != o.level.map(OutputTemplate.levelText) { fields.append("{level}") }
                hint = fields.isEmpty
                    ? "; two levels round to the same whole percent"
                    : "; add \(fields.joined(separator: " or ")) to the output template"
            }
            problems.append(DocumentProblem(
                file: manifest.file, line: o.job.outputLine, column: o.job.outputColumn, keyPath: "jobs[\(o.job.index)].output",
                message: "\(o.path) would be written twice: by \(earlier.job.label) [\(earlier.descriptor)] and by \(o.job.label) [\(o.descriptor)]\(hint)"))
        }
        if !problems.isEmpty { throw CommandError(DocumentError(problems)) }
    }

    /// Loads the job's preset with the job's overrides (`set`, the variant, then the scale and
    /// level) and the command line's last, and plans its loop.
    static func load(_ job: BuildManifest.Job, variant: BuildManifest.Variant?, level: Double?, scale: Double?,
                     cli: [PresetOverride], manifest: BuildManifest, loader: PresetLoader) -> Config {
        let fromJob = { (key: String) in PresetOverride.Origin(file: manifest.file, keyPath: "jobs[\(job.index)].\(key)") }
        var overrides = job.overrides + (variant?.overrides ?? [])
        if let scale { overrides.append(PresetOverride("scale", JSONNode(.number(scale)), origin: fromJob("scales"))) }
        if let level { overrides.append(PresetOverride("level", JSONNode(.number(level)), origin: fromJob("levels"))) }
        overrides += cli

        let config: WaveConfig
        do {
            config = try loader.load(job.preset, overrides: overrides)
        } catch {
            return Config(result: .failure(Failure(CommandError(error))))
        }
        do {
            let plan = try LoopPlanner.plan(config)
            return Config(result: .success(Loaded(config: config, plan: plan)))
        } catch {
            return Config(result: .failure(Failure(config.problem(error.description))))
        }
    }
}

/// What rendering one output produced.
struct RenderedOutput: Sendable {
    var bytes: [UInt8]
    var width: Int
    var height: Int
    /// Output pixels per preset pixel (the image is meant to be shown at width / scale).
    var scale: Double
    var frames: Int
    var fps: Double
    var duration: Double
    var paletteSize: Int
    var milliseconds: Double

    /// Renders and encodes `loaded` as `format` in memory.
    static func render(_ loaded: BuildPlan.Loaded, format: OutputFormat, threads: Int) throws(CommandError) -> RenderedOutput {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = try AnimationEncoder(threads: threads).encode(loaded.config, plan: loaded.plan, format: format)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let frames = result.timing.frameCount
        let duration = loaded.plan.duration
        return RenderedOutput(bytes: result.bytes, width: loaded.config.width, height: loaded.config.height,
                              scale: loaded.config.scale, frames: frames,
                              fps: duration > 0 ? Double(frames) / duration : loaded.plan.fps, duration: duration,
                              paletteSize: result.palette.colors.count, milliseconds: (elapsed * 10).rounded() / 10)
    }
}

/// Runs work items on up to `workers` threads and hands the results over in index order, whatever
/// order they finish in; returns them all, in order. Callbacks run one at a time.
enum OrderedWork {
    @discardableResult
    static func run<R>(count: Int, workers: Int, work: @escaping (Int) -> R, started: @escaping (Int, Int) -> Void,
                       deliver: @escaping (Int, R) -> Void) -> [R] {
        guard count > 0 else { return [] }
        let state = State<R>(count: count)
        let body = { (_: Int) in
            while true {
                let i: Int? = state.lock.withLock {
                    guard state.next < count else { return nil }
                    let i = state.next
                    state.next += 1
                    started(i + 1, i)
                    return i
                }
                guard let i else { return }
                let r = work(i)
                state.lock.withLock {
                    state.results[i] = r
                    while state.delivered < count, let ready = state.results[state.delivered] {
                        deliver(state.delivered, ready)
                        state.delivered += 1
                    }
                }
            }
        }
        let n = max(1, min(workers, count))
        if n == 1 {
            body(0)
        } else {
            let box = UncheckedBox(body)
            DispatchQueue.concurrentPerform(iterations: n) { box.value($0) }
        }
        return state.lock.withLock { state.results.map { $0! } }
    }

    private final class State<R>: @unchecked Sendable {
        let lock = NSLock()
        var next = 0
        var delivered = 0
        var results: [R?]
        init(count: Int) { results = Array(repeating: nil, count: count) }
    }

    private struct UncheckedBox<T>: @unchecked Sendable {
        let value: T
        init(_ value: T) { self.value = value }
    }
}
