import WavePlatform

/// A build manifest (`wavegen.json`): the jobs `wavegen build` and `wavegen preview` render.
/// See docs/manifest.md for the format.
public struct BuildManifest: Sendable {
    /// The manifest file as named on the command line (used in messages).
    public var file: String
    /// The folder relative paths resolve against: "" for the current folder.
    public var directory: String
    public var jobs: [Job]

    public init(file: String, directory: String, jobs: [Job]) {
        self.file = file
        self.directory = directory
        self.jobs = jobs
    }

    /// The largest manifest file read, in bytes.
    public static let maximumFileSize = 1 << 20
    /// The name looked for when no manifest is given (or a folder is).
    public static let defaultFileName = "wavegen.json"

    /// The top-level key that makes a JSON document a manifest rather than a preset.
    public static let topLevelKeys = ["jobs"]
    static let jobKeys = ["name", "preset", "output", "formats", "scales", "levels", "variants", "set", "maxBytes", "fit", "android", "catalog", "live"]
    static let levelRangeKeys = ["from", "to", "step"]
    /// Most outputs one `levels` range may produce.
    static let maximumLevels = 1001
    /// Most outputs one manifest may produce, over all its jobs (each job's variants × levels ×
    /// scales × formats). Checked from the counts alone, before anything is expanded, so a small
    /// file cannot ask for millions of outputs.
    public static let maximumOutputs = 10_000

    /// One entry of `jobs`.
    public struct Job: Sendable {
        /// Index in `jobs` (0-based, as in the key path `jobs[2]`).
        public var index: Int
        /// The job's `name`, or its preset reference.
        public var name: String
        /// The preset as written in the manifest.
        public var presetText: String
        /// The preset reference handed to the loader (resolved against the manifest's folder).
        public var preset: String
        public var output: OutputTemplate
        /// Where `output` is in the manifest (1-based line and column, for collision messages).
        public var outputLine: Int
        public var outputColumn: Int
        /// The 1-based position of the job's `preset` value in the manifest (0 when there is none).
        public var presetLine = 0
        public var presetColumn = 0
        /// nil: taken from the output's extension.
        public var formats: [OutputFormat]?
        /// Output pixels per preset pixel, one output each; nil: the preset's own.
        public var scales: [Double]?
        /// Water levels (0…1), one output each; nil: the preset's own.
        public var levels: [Double]?
        public var variants: [Variant]?
        /// `set`: overrides for every output of the job.
        public var overrides: [PresetOverride]
        public var budget: Budget
        /// `android`: every output's file name must be an Android resource name, as it must in a
        /// template writing to a `drawable` or `raw` folder (`AndroidResourceName`).
        public var android = false
        /// `catalog`: the Xcode asset catalog (`Loaders.xcassets`, relative to the manifest's
        /// folder) whose data sets the outputs are; the template then gives only their file names.
        public var catalog: String?
        /// `live`: the job writes live SVGs, whose level the page sets (its formats must all be SVG).
        public var live = false

        /// A preset named on `preview`'s command line rather than a manifest entry.
        public var standalone = false

        public init(index: Int, name: String, presetText: String, preset: String, output: OutputTemplate,
                    outputLine: Int, outputColumn: Int, formats: [OutputFormat]?, scales: [Double]?, levels: [Double]?,
                    variants: [Variant]?, overrides: [PresetOverride], budget: Budget, standalone: Bool = false) {
            self.index = index
            self.name = name
            self.presetText = presetText
            self.preset = preset
            self.output = output
            self.outputLine = outputLine
            self.outputColumn = outputColumn
            self.formats = formats
            self.scales = scales
            self.levels = levels
            self.variants = variants
            self.overrides = overrides
            self.budget = budget
            self.standalone = standalone
        }

        /// Whether the outputs' file names must be Android resource names: `"android": true`, or a
        /// template writing to a `drawable…` or `raw…` folder.
        public var checksAndroidNames: Bool { android || AndroidResourceName.isResourceFolder(output) }

        /// "jobs[2] (orb)", or the preset for a standalone job.
        public var label: String { standalone ? name : "jobs[\(index)] (\(name))" }
    }

    /// One entry of a job's `variants`: a name and the overrides it applies.
    public struct Variant: Sendable {
        public var name: String
        public var overrides: [PresetOverride]
    }

    /// `maxBytes`: one limit for every output, or one per format.
    public struct Budget: Sendable, Equatable {
        public var all: Int?
        public var perFormat: [OutputFormat: Int] = [:]
        /// `fit`: an output over its limit is fitted (`SizeFit`: quality knobs turned as little as
        /// the limit allows) instead of failing.
        public var fit = false

        public init(all: Int? = nil, perFormat: [OutputFormat: Int] = [:], fit: Bool = false) {
            self.all = all
            self.perFormat = perFormat
            self.fit = fit
        }

        /// The limit an output of `format` is fitted to, nil when it is not fitted.
        public func fitLimit(for format: OutputFormat) -> Int? { fit ? limit(for: format) : nil }

        /// The most bytes an output of `format` may have, nil for no limit.
        public func limit(for format: OutputFormat) -> Int? { perFormat[format] ?? all }

        /// The manifest key the limit comes from, for messages.
        public func source(for format: OutputFormat) -> String { perFormat[format] != nil ? "maxBytes.\(format.rawValue)" : "maxBytes" }
    }

    // MARK: Reading

    /// The manifest file `reference` names: itself, or the wavegen.json inside a folder.
    public static func locate(_ reference: String?) -> String {
        guard let reference else { return defaultFileName }
        if FileSystem.isDirectory(reference) {
            return reference.hasSuffix("/") ? reference + defaultFileName : reference + "/" + defaultFileName
        }
        return reference
    }

    /// Whether `path` is a readable JSON file whose top level has a `jobs` key: how manifests are
    /// told from presets.
    public static func looksLikeManifest(_ path: String) -> Bool {
        guard let bytes = try? readFile(path), let root = try? JSONParser.parse(bytes) else { return false }
        return isManifest(root)
    }

    /// Whether a parsed document is a manifest (its top level has a `jobs` key) rather than a preset.
    public static func isManifest(_ root: JSONNode) -> Bool { root["jobs"] != nil }

    /// Reads and checks the manifest at `path`; every problem is reported, in file order.
    public static func load(_ path: String) throws(WaveError) -> BuildManifest {
        let read = try self.read(path)
        guard read.problems.isEmpty else { throw WaveError(read.problems) }
        return read.manifest
    }

    /// Reads a manifest that parses: the jobs that are well-formed, and the problems of the rest
    /// (in file order), so a caller can check the good jobs' presets too. Throws when the file is
    /// missing, not JSON or a preset.
    public static func read(_ path: String) throws(WaveError) -> (manifest: BuildManifest, problems: [DocumentProblem]) {
        let bytes = try readFile(path)
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw WaveError(DocumentProblem(file: path, line: error.line, column: error.column, message: error.message))
        }
        if let preset = notAManifest(root, file: path) { throw WaveError(preset) }
        let directory = PathText.folder(of: path)
        var reader = ManifestReader(file: path)
        let jobs = reader.manifest(root, directory: directory)
        // In file order; problems found at one position keep the order they were found in.
        let sorted = reader.problems.enumerated().sorted { a, b in
            (a.element.line, a.element.column, a.offset) < (b.element.line, b.element.column, b.offset)
        }.map(\.element)
        return (BuildManifest(file: path, directory: directory, jobs: jobs), sorted)
    }

    /// The one problem of a preset handed over as a manifest (an object without `jobs` that has a
    /// preset's keys), or nil when it does not look like a preset.
    static func notAManifest(_ root: JSONNode, file: String) -> DocumentProblem? {
        guard case let .object(members) = root.value, root["jobs"] == nil,
              members.contains(where: { WaveConfig.topLevelKeys.contains($0.key) }) else { return nil }
        return DocumentProblem(file: file, message: "this is a preset, not a build manifest (no \"jobs\"); render it with 'wavegen render \(file)'")
    }

    static func readFile(_ path: String) throws(WaveError) -> [UInt8] {
        try BoundedFile.read(path, limit: maximumFileSize, kind: "manifest")
    }

    /// A path from the manifest, resolved against its folder.
    public static func resolve(_ path: String, in directory: String) -> String {
        if path.hasPrefix("/") || directory.isEmpty || directory == "." { return path }
        return directory.hasSuffix("/") ? directory + path : directory + "/" + path
    }

    /// The preset reference for the loader: a path (containing "/" or ending in ".json", or an
    /// existing file of that name beside the manifest) resolves against the manifest's folder;
    /// anything else is a bundled preset's name.
    public static func presetReference(_ text: String, in directory: String) -> String {
        let joined = resolve(text, in: directory)
        if text.contains("/") || text.hasSuffix(".json") { return joined }
        if let kind = FileSystem.kind(of: joined), kind != .directory {
            return joined.contains("/") ? joined : "./" + joined
        }
        return text
    }
}
