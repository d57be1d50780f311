import WavePlatform
import WaveKit

/// A manifest, or presets named on a command line, expanded into outputs: every job's matrix
/// (variants × levels × scales × formats) in order, each output's path, and the presets loaded and
/// planned.
public struct BuildPlan: Sendable {
    /// Where a plan's jobs come from.
    public enum Origin: Sendable {
        /// A manifest's jobs.
        case manifest(BuildManifest)
        /// Presets named on a command line, each a job of its own (`BuildManifest.Job.preset`):
        /// no manifest stands behind them.
        case presets([BuildManifest.Job])

        public var jobs: [BuildManifest.Job] {
            switch self {
            case let .manifest(m): m.jobs
            case let .presets(jobs): jobs
            }
        }

        /// Where a problem with a job is said to be: the manifest's file, or "(command line)".
        public var file: String {
            switch self {
            case let .manifest(m): m.file
            case .presets: "(command line)"
            }
        }

        /// The folder output paths are resolved against: the manifest's, or "" (the current one).
        public var directory: String {
            switch self {
            case let .manifest(m): m.directory
            case .presets: ""
            }
        }
    }

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
        /// Where a write lands: the real path of the output's folder (links resolved) joined to its
        /// name, for collision checks and the inside-the-folder rule.
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
        public var result: Result<Loaded, WaveError>
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

    public var origin: Origin
    /// The manifest the plan expands; nil for presets named on a command line.
    public var manifest: BuildManifest? {
        if case let .manifest(m) = origin { return m }
        return nil
    }
    public var outputs: [Output]
    public var configs: [Config]
    /// Loop-planner warnings, already prefixed with their job.
    public var warnings: [String]
    /// What the build does differently from what the manifest may lead one to expect (one vector
    /// file for all of a job's scales), already prefixed with their job; printed as notes.
    public var notes: [String] = []
    /// The files whose bytes are computed (asset catalogs' `Contents.json`), written after the
    /// outputs.
    public var files: [File] = []

    /// Expands `manifest`: `make(.manifest(manifest), …)`.
    public static func make(_ manifest: BuildManifest, overrides cli: [PresetOverride], checkCollisions: Bool = true) throws(WaveError) -> BuildPlan {
        try make(.manifest(manifest), overrides: cli, checkCollisions: checkCollisions)
    }

    /// Expands `origin`'s jobs. Collisions (two outputs with one path) are a manifest error;
    /// a preset that cannot be loaded only fails its own outputs.
    public static func make(_ origin: Origin, overrides cli: [PresetOverride], checkCollisions: Bool = true) throws(WaveError) -> BuildPlan {
        let loader = PresetLoader.standard
        var outputs: [Output] = []
        var configs: [Config] = []
        var warnings: [String] = []
        var notes: [String] = []
        for job in origin.jobs {
            let presetName = self.presetName(job, loader: loader)
            if let note = vectorNote(job) { notes.append(note) }
            for (cell, paths) in expand(job, name: presetName, cli: cli, origin: origin, loader: loader) {
                let configIndex = configs.count
                let config = load(job, variant: cell.variant, level: cell.level, scale: cell.scale, cli: cli, origin: origin, loader: loader)
                if case let .success(loaded) = config.result {
                    // Once per preset and variant, however many scales or levels share the warning.
                    for w in loaded.plan.warnings {
                        let line = "\(job.label): \(loaded.config.name): \(w)"
                        if !warnings.contains(line) { warnings.append(line) }
                    }
                }
                configs.append(config)
                for (format, path) in paths {
                    outputs.append(Output(index: outputs.count, job: job, variant: cell.variant?.name, level: cell.level, scale: cell.scale,
                                          format: format, path: path, key: OnDisk.landingPath(path), config: configIndex))
                }
            }
        }
        try checkDensities(outputs, origin: origin, cli: cli, loader: loader)
        try checkFileNames(outputs, origin: origin, loader: loader)
        let files = try AssetCatalog.files(outputs, origin: origin)
        if checkCollisions { try self.checkCollisions(outputs, files: files, origin: origin) }
        return BuildPlan(origin: origin, outputs: outputs, configs: configs, warnings: warnings, notes: notes, files: files)
    }

    /// One cell of a job's matrix (a variant, level and scale; nil where the job has no such axis)
    /// and the formats written there.
    struct Cell {
        var variant: BuildManifest.Variant?
        var level: Double?
        var scale: Double?
        var formats: [OutputFormat]
    }

    /// A job's matrix in output order: each variant, each level, each scale, each format. SVG and
    /// Lottie are resolution-independent: in a job with more than one scale they are written once
    /// per variant and level, at scale 1 (in the scale-1 cell, or in a cell of their own before
    /// the others when the job's scales leave 1 out), rather than as one copy per scale.
    static func cells(_ job: BuildManifest.Job) -> [Cell] {
        let formats = job.formats ?? []
        let dedupe = (job.scales?.count ?? 0) > 1 && formats.contains(where: \.isVector)
        let vector = formats.filter(\.isVector), raster = formats.filter { !$0.isVector }
        var cells: [Cell] = []
        for variant in job.variants.map({ $0.map(Optional.some) }) ?? [nil] {
            for level in job.levels.map({ $0.map(Optional.some) }) ?? [nil] {
                guard dedupe, let scales = job.scales else {
                    for scale in job.scales.map({ $0.map(Optional.some) }) ?? [nil] {
                        cells.append(Cell(variant: variant, level: level, scale: scale, formats: formats))
                    }
                    continue
                }
                if !scales.contains(1) { cells.append(Cell(variant: variant, level: level, scale: 1, formats: vector)) }
                // A scale left with no format (a job of vector formats only) has nothing to load.
                for scale in scales where scale == 1 || !raster.isEmpty {
                    cells.append(Cell(variant: variant, level: level, scale: scale, formats: scale == 1 ? formats : raster))
                }
            }
        }
        return cells
    }

    /// A job's cells, each with the path of every format written there: the one expansion `make`
    /// and `plannedPaths` share.
    static func expand(_ job: BuildManifest.Job, name: String, cli: [PresetOverride], origin: Origin,
                       loader: PresetLoader) -> [(cell: Cell, paths: [(format: OutputFormat, path: String)])] {
        cells(job).map { cell in
            let density = densityScale(job, cell: cell, cli: cli, loader: loader)
            return (cell, cell.formats.map { ($0, outputPath(job, name: name, cell: cell, density: density, format: $0, origin: origin)) })
        }
    }

    /// The note a job with more than one scale and a vector format gets, once.
    static func vectorNote(_ job: BuildManifest.Job) -> String? {
        guard (job.scales?.count ?? 0) > 1, (job.formats ?? []).contains(where: \.isVector) else { return nil }
        return "\(job.label): svg and lottie are resolution-independent; one file written instead of one per scale"
    }

    /// The scale `{density}` names in a cell: its matrix scale, or (a job without `scales`) the
    /// scale of the preset as loaded with the job's, the variant's and the command line's
    /// overrides; nil when the template has no `{density}` or the preset cannot be loaded.
    static func densityScale(_ job: BuildManifest.Job, cell: Cell, cli: [PresetOverride], loader: PresetLoader) -> Double? {
        guard job.output.uses(.density) else { return nil }
        if let scale = cell.scale { return scale }
        return try? loader.loadDocument(job.preset, overrides: job.overrides + (cell.variant?.overrides ?? []) + cli).config.scale
    }

    /// One output's path: the job's template filled in, resolved against the manifest's folder.
    static func outputPath(_ job: BuildManifest.Job, name: String, cell: Cell, density: Double?,
                           format: OutputFormat, origin: Origin) -> String {
        var values: [OutputTemplate.Field: String] = [.name: name, .scale: OutputTemplate.scaleText(cell.scale), .format: format.fileExtension]
        if let variant = cell.variant { values[.variant] = variant.name }
        if let level = cell.level { values[.level] = OutputTemplate.levelText(level) }
        if let density, let text = OutputTemplate.densityText(density) { values[.density] = text }
        let rendered = job.output.render(values)
        if let catalog = job.catalog { return BuildManifest.resolve(AssetCatalog.outputPath(catalog: catalog, fileName: rendered), in: origin.directory) }
        return BuildManifest.resolve(rendered, in: origin.directory)
    }

    /// The path of every output of every job of `manifest`, without planning a loop: what a build
    /// of some jobs needs to know which of the lock's files another job still plans. `cli` are the
    /// command line's overrides (a preset's own scale decides `{density}` in a job without `scales`).
    public static func plannedPaths(_ manifest: BuildManifest, overrides cli: [PresetOverride] = []) -> [String] {
        var outputs: [Output] = []
        for job in manifest.jobs {
            for (cell, paths) in expand(job, name: presetName(job, loader: .standard), cli: cli, origin: .manifest(manifest), loader: .standard) {
                for (format, path) in paths {
                    outputs.append(Output(index: outputs.count, job: job, variant: cell.variant?.name, level: cell.level, scale: cell.scale,
                                          format: format, path: path, key: path, config: 0))
                }
            }
        }
        let files = (try? AssetCatalog.files(outputs, origin: .manifest(manifest))) ?? []
        return outputs.map(\.path) + files.map(\.path)
    }

    /// Refuses, once per job, a `{density}` the output cannot have: in a job without `scales`, a
    /// preset whose own scale Android has no density for (a job's `scales` are checked with the
    /// manifest).
    static func checkDensities(_ outputs: [Output], origin: Origin, cli: [PresetOverride], loader: PresetLoader) throws(WaveError) {
        var problems: [DocumentProblem] = []
        var seen = Set<Int>()
        for o in outputs where o.job.output.uses(.density) && o.scale == nil && !seen.contains(o.job.index) {
            let variant = o.job.variants?.first { $0.name == o.variant }
            let cell = Cell(variant: variant, level: o.level, scale: nil, formats: [o.format])
            guard let scale = densityScale(o.job, cell: cell, cli: cli, loader: loader), OutputTemplate.densityText(scale) == nil else { continue }
            seen.insert(o.job.index)
            problems.append(DocumentProblem(file: origin.file, line: o.job.outputLine, column: o.job.outputColumn, keyPath: "jobs[\(o.job.index)].output",
                                            message: "uses {density}, but the preset's scale \(JSONNode(.number(scale)).serialized()) has no Android density; "
                                                + "add \"scales\" from \(OutputTemplate.densityList)"))
        }
        if !problems.isEmpty { throw WaveError(problems) }
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
        PathText.normalised(PathText.joined(FileSystem.currentDirectory, path))
    }

    /// Refuses, once per job, what would write a file the template did not mean: a field whose value
    /// is not one file name (`{name}` or `{variant}` holding "/", a control character, or being
    /// "." or ".."), a path holding a NUL or control character or a name too long for a file
    /// system, and a hidden or empty file name ("{scale}.gif" is ".gif" at @1x).
    static func checkFileNames(_ outputs: [Output], origin: Origin, loader: PresetLoader) throws(WaveError) {
        var problems: [DocumentProblem] = []
        var seen = Set<Int>()
        var names: [Int: String] = [:]
        for o in outputs where !seen.contains(o.job.index) {
            let at = { (message: String) in
                seen.insert(o.job.index)
                problems.append(DocumentProblem(file: origin.file, line: o.job.outputLine, column: o.job.outputColumn,
                                                keyPath: "jobs[\(o.job.index)].output", message: message))
            }
            var fields: [(String, String, String)] = []
            if o.job.output.uses(.name) {
                let name = names[o.job.index] ?? presetName(o.job, loader: loader)
                names[o.job.index] = name
                fields.append(("{name}", name, "the preset's name"))
            }
            if o.job.output.uses(.variant), let v = o.variant { fields.append(("{variant}", v, "a variant's name")) }
            if let bad = fields.first(where: { fieldProblem($0.1) != nil }) {
                at("\(bad.0) would be \(JSONNode.string(bad.1).serialized()) (\(bad.2)), which \(fieldProblem(bad.1)!); a field fills in one file name")
            } else if let problem = OnDisk.nameProblem(o.path) {
                at("the output path \(JSONNode.string(o.path).serialized()) \(problem)")
            } else if PathText.lastComponent(of: o.path).hasPrefix(".") {
                at("\(o.path) would be a hidden file (its name starts with \".\"); put {name} or other text before the fields")
            } else if o.job.checksAndroidNames, let message = androidNameProblem(o) {
                at(message)
            }
        }
        if !problems.isEmpty { throw WaveError(problems) }
    }

    /// Why an output's file name is not an Android resource name, with a name that is, or nil when
    /// it is one. The `{scale}` text ("@2x") is named as such: Android tells densities by folder.
    static func androidNameProblem(_ o: Output) -> String? {
        let base = AndroidResourceName.baseName(String(o.path.split(separator: "/").last ?? ""))
        guard let problem = AndroidResourceName.problem(base) else { return nil }
        let scaleText = o.job.output.uses(.scale) ? OutputTemplate.scaleText(o.scale) : ""
        let why = o.job.android ? "the job sets \"android\": true" : "it is in an Android resource folder"
        var message = "\(o.path): \(JSONNode.string(base).serialized()) is not an Android resource name (\(why)): it \(problem)"
        let added = o.job.output.uses(.scale) ? (o.job.scales ?? []).map(OutputTemplate.scaleText).filter { !$0.isEmpty } : []
        if !added.isEmpty {
            let list = added.map { "\"\($0)\"" }.joined(separator: ", ")
            message += "; {scale} adds \(list), which a resource name cannot hold: use drawable-{density} folders instead of {scale}"
        }
        return message + "; name it \(JSONNode.string(AndroidResourceName.suggestion(for: base, dropping: scaleText)).serialized())"
    }

    /// Why `value` cannot fill a field of a path, or nil when it can.
    static func fieldProblem(_ value: String) -> String? {
        if value.isEmpty { return "is empty" }
        if value == "." || value == ".." { return "names a folder" }
        if value.contains("/") { return "holds a \"/\"" }
        if let bad = value.unicodeScalars.first(where: OnDisk.isControl) {
            return bad == "\u{0}" ? "holds a NUL character" : "holds a control character"
        }
        return nil
    }

    static func checkCollisions(_ outputs: [Output], files: [File] = [], origin: Origin) throws(WaveError) {
        var first: [String: Output] = [:]
        var byIdentity: [OnDisk.Identity: Output] = [:]
        var problems: [DocumentProblem] = []
        let computed = Dictionary(files.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        for o in outputs {
            if let file = computed[o.key] {
                problems.append(DocumentProblem(
                    file: origin.file, line: o.job.outputLine, column: o.job.outputColumn, keyPath: "jobs[\(o.job.index)].output",
                    message: "\(o.path) would be written over the asset catalog's \(file.path), which \(file.job.label) writes"))
                continue
            }
            // One file under two names (a link) collides like one name twice.
            let id = OnDisk.identity(o.path)
            guard let earlier = first[o.key] ?? id.flatMap({ byIdentity[$0] }) else {
                first[o.key] = o
                if let id { byIdentity[id] = o }
                continue
            }
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
                file: origin.file, line: o.job.outputLine, column: o.job.outputColumn, keyPath: "jobs[\(o.job.index)].output",
                message: "\(o.path) would be written twice: by \(earlier.job.label) [\(earlier.descriptor)] and by \(o.job.label) [\(o.descriptor)]\(hint)"))
        }
        if !problems.isEmpty { throw WaveError(problems) }
    }

    /// `error` with a preset file that is not there said at the job's `preset` in the manifest
    /// (the file alone names neither the manifest nor the job).
    static func missingPreset(_ error: WaveError, job: BuildManifest.Job, origin: Origin) -> WaveError {
        guard error.problems.count == 1, let problem = error.problems.first, problem.file == job.preset, problem.line == 0,
              problem.kind == .missingInput else { return error }
        let at = job.preset == job.presetText ? "" : " (\(job.preset))"
        return WaveError(DocumentProblem(file: origin.file, line: job.presetLine, column: job.presetColumn, keyPath: "jobs[\(job.index)].preset",
                                             message: "no preset \"\(job.presetText)\"\(at): \(problem.message)", kind: .missingInput))
    }

    /// Loads the job's preset with the job's overrides (`set`, the variant, then the scale and
    /// level) and the command line's last, and plans its loop.
    static func load(_ job: BuildManifest.Job, variant: BuildManifest.Variant?, level: Double?, scale: Double?,
                     cli: [PresetOverride], origin: Origin, loader: PresetLoader) -> Config {
        let fromJob = { (key: String) in PresetOverride.Origin(file: origin.file, keyPath: "jobs[\(job.index)].\(key)") }
        var overrides = job.overrides + (variant?.overrides ?? [])
        if let scale { overrides.append(PresetOverride("scale", JSONNode(.number(scale)), origin: fromJob("scales"))) }
        if let level { overrides.append(PresetOverride("level", JSONNode(.number(level)), origin: fromJob("levels"))) }
        overrides += cli

        let loaded: (config: WaveConfig, document: JSONNode)
        do {
            loaded = try loader.loadDocument(job.preset, overrides: overrides)
        } catch {
            return Config(result: .failure(missingPreset(error, job: job, origin: origin)))
        }
        do {
            let plan = try RenderPipeline(loader: loader).plan(loaded.config)
            return Config(result: .success(Loaded(config: loaded.config, plan: plan, document: loaded.document)))
        } catch {
            return Config(result: .failure(error))
        }
    }
}
