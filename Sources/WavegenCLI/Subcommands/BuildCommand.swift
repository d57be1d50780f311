import WavePlatform
import WaveKit
import WaveRender
import WaveBuild

/// `wavegen build [MANIFEST]`: renders the outputs a manifest lists whose inputs changed since the
/// lock file recorded them, and leaves every other file alone.
enum BuildCommand: Subcommand {
    static let spec = CommandSpec(
        name: "build",
        abstract: "Render the outputs of a build manifest whose inputs changed; unchanged files are left alone.",
        usage: "wavegen build [<manifest>] [--check] [--prune] [--job <name> ...] [-j <n>] [--report <file>] [options]",
        arguments: [ArgumentSpec(name: "<manifest>", help: "The manifest file, or a folder holding wavegen.json (default: ./wavegen.json).",
                                 completion: .files(["json"]))],
        options: [
            OptionSpec(names: ["--check"], value: nil,
                       help: "Render nothing and write nothing; exit 1 if an output is missing, stale (inputs changed), modified (file changed by hand), failing or orphaned."),
            OptionSpec(names: ["--prune"], value: nil, help: "Delete orphans: files wavegen.lock records as written for this manifest that no job plans any more (only while they hold the bytes wavegen wrote)."),
            OptionSpec(names: ["--job"], value: "name", help: "Build or check only this job (by its name; repeatable).", repeatable: true),
            OptionSpec(names: ["--list"], value: nil, help: "Print the planned outputs and exit, rendering nothing."),
            OptionSpec(names: ["--allow-outside"], value: nil, help: "Allow output templates that write outside the manifest's folder."),
            OptionSpec(names: ["--jobs", "-j"], value: "n",
                       help: "Render this many outputs at once, each on one thread (render's -j counts threads drawing one output); at most 64 are used, a larger count is clamped with a warning.",
                       defaultText: "one per core"),
            OptionSpec(names: ["--strict"], value: nil,
                       help: "Fail (exit 65) before writing anything where render --strict would: a fixed duration that moves a speed beyond speedTolerance, or a label that does not fit."),
            OptionSpec(names: ["--report"], value: "file", help: "Also write a JSON report of every output to this file.", completion: .files(["json"])),
            OptionSpec(names: ["--json"], value: nil, help: "Print a JSON summary on stdout instead of one line per output."),
            OptionSpec(names: ["--quiet", "-q"], value: nil, help: "Print only problems: no output lines, summary or progress."),
        ] + PresetOptions.specs,
        discussion: """
            wavegen.lock beside the manifest records, for every output, a digest of everything that
            determines its bytes and the digest of the file written. An output is rendered only when
            one of them differs, and a file whose bytes would not change is not rewritten (its
            modification time stays). The overrides (--set, --size, --scale, --fps, --level,
            --background) apply to every job, after the job's own. See docs/manifest.md.
            """)

    static func run(_ a: ParsedArguments, console: Console) throws(WaveError) {
        guard a.positionals.count <= 1 else { throw .usage("build takes one manifest, got \(a.positionals.count)") }
        let workers = try jobCount(a, console: console)
        let options = ManifestBuild.Options(check: a.has("--check"), prune: a.has("--prune"), allowOutside: a.has("--allow-outside"),
                                            strict: a.has("--strict"), overrides: try PresetOptions.overrides(a),
                                            workers: workers, generator: "wavegen \(Wavegen.versionDescription)")
        let check = options.check, quiet = a.has("--quiet"), json = a.has("--json")
        if check, options.prune { throw .usage("--check writes nothing, so it cannot --prune; run them one after the other") }
        let report = a.value("--report")

        let manifest = try BuildManifest.loadForCommand(BuildManifest.locate(a.positionals.first)) { e in
            if a.positionals.isEmpty, e.kind == .missingInput { e.problems[0].message += " (name a manifest: wavegen build path/to/wavegen.json)" }
        }
        ManifestBuild.protectInputs(manifest)
        if let report { try AtomicFile.checkWritable(report) }
        let build = try ManifestBuild(manifest: manifest, selected: try selectJobs(a.values["--job"] ?? [], in: manifest), options: options)
        let plan = build.plan
        if a.has("--list") {
            for o in plan.outputs { console.out("\(o.path)  (\(o.job.label) \(o.descriptor))\n") }
            for f in plan.files { console.out("\(f.path)  (\(f.job.label) asset catalog)\n") }
            return
        }
        let lines = !quiet && !json
        let progress = ProgressLine(console, enabled: console.errIsTerminal && !quiet)
        let outcome = try build.run(progress: progress) { event in
            switch event {
            case let .warning(w): console.err("warning: \(w)\n")
            case let .planNote(n): if !quiet { console.err("note: \(n)\n") }
            case let .lockNote(n): console.err("note: \(n)\n")
            case let .error(line): console.err(line + "\n")
            case let .output(output, result): if lines { console.out(BuildReport.textLine(output, result) + "\n") }
            case let .file(file, r): if lines { console.out(BuildReport.statusLine(r.status.rawValue, size: r.bytes, path: file.path) + "\n") }
            case let .orphaned(path): if lines { console.out(BuildReport.statusLine("orphaned", size: BuildEngine.fileSize(path), path: path) + "\n") }
            case let .pruned(path): if lines { console.out(BuildReport.statusLine("pruned", size: nil, path: path) + "\n") }
            }
        }
        let counts = outcome.counts
        if lines { console.out(counts.summary(check: check) + "\n") }
        if check, counts.outOfDate > 0 {
            console.err("Error: \(counts.outOfDate) of \(counts.total + counts.orphaned) outputs are missing, out of date or orphaned; run '\(rerun(a, prune: counts.orphaned > 0))' to update them\n")
        }
        if let failure = outcome.lockFailure { throw failure }
        let summary = BuildReport.json(plan: plan, results: outcome.outputs, fileResults: outcome.files, check: check, counts: counts, code: outcome.code,
                                       version: Wavegen.versionDescription)
        if json { console.out(summary.serialized() + "\n") }
        if let report { try AtomicFile.write(Array((summary.serialized() + "\n").utf8), to: report) }
        if let failure = outcome.failure { throw WaveError(failure, []) }
    }

    /// The command that brings the outputs up to date: it repeats what decides them (the manifest,
    /// the jobs and the overrides), quoted for a shell.
    static func rerun(_ a: ParsedArguments, prune: Bool) -> String {
        var rerun = ["wavegen", "build"] + a.positionals
        for job in a.values["--job"] ?? [] { rerun += ["--job", job] }
        for option in PresetOptions.specs.map(\.canonical) {
            for value in a.values[option] ?? [] { rerun += [option, value] }
        }
        if prune { rerun.append("--prune") }
        return rerun.map { word in
            word.contains(where: { " '\"$\\*?#&;|<>()[]{}".contains($0) })
                ? "\"" + word.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"").replacingAll("$", with: "\\$") + "\""
                : word
        }.joined(separator: " ")
    }

    /// `--jobs`: outputs rendered at once, one per core by default, at most `Parallelism.maximum`.
    static func jobCount(_ a: ParsedArguments, console: Console) throws(WaveError) -> Int {
        try Parallelism.count(a, option: "--jobs", console: console) ?? Parallelism.clamped(ProcessEnvironment.activeProcessorCount)
    }

    /// Keeps only the jobs named by `--job`; returns their names, or nil when every job is built.
    static func selectJobs(_ names: [String], in manifest: BuildManifest) throws(WaveError) -> Set<String>? {
        guard !names.isEmpty else { return nil }
        let known = manifest.jobs.map(\.name)
        for name in names where !known.contains(name) {
            let hint = Suggest.closest(to: name, among: known).map { "did you mean '\($0)'?; " } ?? ""
            throw .usage("--job \(name): no job of that name in \(manifest.file) (\(hint)jobs: \(known.joined(separator: ", ")))")
        }
        return Set(names)
    }
}
