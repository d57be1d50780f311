import Foundation
import WaveKit

/// A manifest expanded into its outputs: every job's matrix (variants × levels × scales ×
/// formats) in manifest order, each output's path, and the presets loaded and planned.
public struct BuildPlan: Sendable {
    /// One file the build produces.
    public struct Output: Sendable {
        /// Position in `outputs` (manifest order).
        public var index: Int
        public var job: BuildManifest.Job
        public var variant: String?
        public var level: Double?
        public var scale: Double?
        public var format: OutputFormat
        /// The path as shown and written: resolved against the manifest's folder.
        public var path: String
        /// The path made absolute and normalised, for collision checks.
        public var key: String
        /// Index into `configs` (shared by the formats of one variant/level/scale).
        public var config: Int

        public var budget: Int? { job.budget.limit(for: format) }
        /// The size this output is fitted to (`"fit": true` beside `maxBytes`), nil when not fitted.
        public var fitLimit: Int? { job.budget.fitLimit(for: format) }

        /// "webp @2x, variant dark": what sets this output apart within its job.
        public var descriptor: String {
            var parts = [format.rawValue + (scale.map { $0 == 1 ? " @1x" : " " + OutputTemplate.scaleText($0) } ?? "")]
            if let variant { parts.append("variant \(variant)") }
            if let level { parts.append("level \(JSONNode(.number(level)).serialized())") }
            return parts.joined(separator: ", ")
        }
    }

    /// A loaded and planned preset, or why it could not be.
    public struct Config: Sendable {
        public var result: Result<Loaded, RenderError>
    }

    public struct Loaded: Sendable {
        public var config: WaveConfig
        public var plan: LoopPlan
        /// The merged preset document the config was decoded from (see `PresetLoader.loadDocument`).
        public var document: JSONNode

        public init(config: WaveConfig, plan: LoopPlan, document: JSONNode) {
            self.config = config
            self.plan = plan
            self.document = document
        }
    }

    public var manifest: BuildManifest
    public var outputs: [Output]
    public var configs: [Config]
    /// Loop-planner warnings, already prefixed with their job.
    public var warnings: [String]

    /// Expands `manifest`. Collisions (two outputs with one path) are a manifest error;
    /// a preset that cannot be loaded only fails its own outputs.
    public static func make(_ manifest: BuildManifest, overrides cli: [PresetOverride], checkCollisions: Bool = true) throws(RenderError) -> BuildPlan {
        let loader = PresetLoader.standard
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
                            // Once per preset and variant, however many scales or levels share the warning.
                            for w in loaded.plan.warnings {
                                let line = "\(job.label): \(loaded.config.name): \(w)"
                                if !warnings.contains(line) { warnings.append(line) }
                            }
                        }
                        configs.append(config)
                        for format in job.formats ?? [] {
                            var values: [OutputTemplate.Field: String] = [
                                .name: presetName, .scale: OutputTemplate.scaleText(scale), .format: format.fileExtension,
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
        try checkFileNames(outputs, manifest: manifest)
        if checkCollisions { try self.checkCollisions(outputs, manifest: manifest) }
        return BuildPlan(manifest: manifest, outputs: outputs, configs: configs, warnings: warnings)
    }

    /// The `{name}` of a job: its preset's `name`, or the name its file gives it.
    public static func presetName(_ job: BuildManifest.Job, loader: PresetLoader) -> String {
        if let resolved = try? loader.resolve(job.preset) {
            if case let .string(s)? = resolved.root["name"]?.value { return s }
            return resolved.defaultName
        }
        let base = PathText.lastComponent(of: job.presetText)
        return base.hasSuffix(".json") ? String(base.dropLast(5)) : base
    }

    /// `path` as an absolute path without "." or ".." components, so two spellings of one file
    /// compare equal.
    public static func normalised(_ path: String) -> String {
        PathText.normalised(PathText.joined(FileManager.default.currentDirectoryPath, path))
    }

    /// Refuses a template that gives an output a hidden or empty file name ("{scale}.gif" is
    /// ".gif" at @1x), once per job.
    static func checkFileNames(_ outputs: [Output], manifest: BuildManifest) throws(RenderError) {
        var problems: [DocumentProblem] = []
        var seen = Set<Int>()
        for o in outputs where PathText.lastComponent(of: o.path).hasPrefix(".") && seen.insert(o.job.index).inserted {
            problems.append(DocumentProblem(
                file: manifest.file, line: o.job.outputLine, column: o.job.outputColumn, keyPath: "jobs[\(o.job.index)].output",
                message: "\(o.path) would be a hidden file (its name starts with \".\"); put {name} or other text before the fields"))
        }
        if !problems.isEmpty { throw RenderError(DocumentError(problems)) }
    }

    static func checkCollisions(_ outputs: [Output], manifest: BuildManifest) throws(RenderError) {
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
        if !problems.isEmpty { throw RenderError(DocumentError(problems)) }
    }

    /// `error` with a preset file that is not there said at the job's `preset` in the manifest
    /// (the file alone names neither the manifest nor the job).
    static func missingPreset(_ error: DocumentError, job: BuildManifest.Job, manifest: BuildManifest) -> DocumentError {
        guard error.problems.count == 1, let problem = error.problems.first, problem.file == job.preset, problem.line == 0,
              problem.kind == .missingInput else { return error }
        let at = job.preset == job.presetText ? "" : " (\(job.preset))"
        return DocumentError(DocumentProblem(file: manifest.file, line: job.presetLine, column: job.presetColumn, keyPath: "jobs[\(job.index)].preset",
                                             message: "no preset \"\(job.presetText)\"\(at): \(problem.message)", kind: .missingInput))
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

        let loaded: (config: WaveConfig, document: JSONNode)
        do {
            loaded = try loader.loadDocument(job.preset, overrides: overrides)
        } catch {
            return Config(result: .failure(RenderError(missingPreset(error, job: job, manifest: manifest))))
        }
        do {
            let plan = try RenderPipeline(loader: loader).plan(loaded.config)
            return Config(result: .success(Loaded(config: loaded.config, plan: plan, document: loaded.document)))
        } catch {
            return Config(result: .failure(error))
        }
    }
}
