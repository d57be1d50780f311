import WaveKit
import WaveRender

extension BuildPlan {
    /// The plan a command runs: overrides of a job's axes refused first, then `make`, its errors as
    /// the command line reports them.
    public static func forCommand(_ manifest: BuildManifest, overrides cli: [PresetOverride], checkCollisions: Bool = true) throws(WaveError) -> BuildPlan {
        try forCommand(.manifest(manifest), overrides: cli, checkCollisions: checkCollisions)
    }

    /// `forCommand` for the jobs of `origin`: a manifest's, or presets named on a command line.
    public static func forCommand(_ origin: Origin, overrides cli: [PresetOverride], checkCollisions: Bool = true) throws(WaveError) -> BuildPlan {
        try checkAxisOverrides(origin.jobs, overrides: cli)
        return try make(origin, overrides: cli, checkCollisions: checkCollisions)
    }

    /// Refuses command-line overrides of what a job's matrix varies (`scale` against `scales`,
    /// `level` against `levels`, a key a variant sets against `variants`): every file of that axis
    /// would hold the same picture under names that say otherwise (`@3x` at 2×).
    public static func checkAxisOverrides(_ jobs: [BuildManifest.Job], overrides cli: [PresetOverride]) throws(WaveError) {
        var lines: [String] = []
        for o in cli {
            guard case let .key(key)? = o.path.components.first else { continue }
            for job in jobs {
                let axis: String?
                switch key {
                case "scale" where job.scales != nil: axis = "scales"
                case "level" where job.levels != nil: axis = "levels"
                default:
                    let varied = job.variants?.contains { v in v.overrides.contains { $0.path.components.first == .key(key) } } ?? false
                    axis = varied ? "variants" : nil
                }
                guard let axis else { continue }
                lines.append("\(o.origin.file) sets \(key), which \(job.label) varies by its \(axis): its files would all hold one \(key) under names that say otherwise; drop \(o.origin.file), or leave the job out with --job")
            }
        }
        if !lines.isEmpty { throw WaveError(.conflictingArguments, lines) }
    }
}

extension BuildManifest {
    /// Loads a manifest for a command. When some of its jobs are malformed, the presets of the
    /// well-formed ones are checked as well, so one run reports the manifest's problems and theirs.
    /// `adjust` may add to the error of a manifest that cannot be read at all.
    public static func loadForCommand(_ path: String, adjust: (inout WaveError) -> Void = { _ in }) throws(WaveError) -> BuildManifest {
        let read: (manifest: BuildManifest, problems: [DocumentProblem])
        do {
            read = try BuildManifest.read(path)
        } catch {
            var e = error
            adjust(&e)
            throw e
        }
        guard !read.problems.isEmpty else { return read.manifest }
        var failure = WaveError(read.problems)
        if !read.manifest.jobs.isEmpty, let plan = try? BuildPlan.make(read.manifest, overrides: [], checkCollisions: false) {
            for config in plan.configs {
                guard case let .failure(f) = config.result else { continue }
                failure.problems += f.problems.filter { !failure.printedLines.contains($0.printed()) }
            }
        }
        throw failure
    }
}

extension BuildManifest.Job {
    /// A preset named on the command line as a job of its own, shown in `formats`; its output path
    /// (`{name}.{format}`) is only a label.
    public static func preset(_ input: String, index: Int, formats: [OutputFormat]) -> BuildManifest.Job {
        BuildManifest.Job(
            index: index, name: input, presetText: input, preset: input,
            output: try! OutputTemplate.parse("{name}.{format}").get(), outputLine: 0, outputColumn: 0,
            formats: formats, scales: nil, levels: nil, variants: nil, overrides: [], budget: BuildManifest.Budget(),
            standalone: true)
    }
}
