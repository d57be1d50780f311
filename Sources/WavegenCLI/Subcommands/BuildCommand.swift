import Foundation
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

    static func run(_ a: ParsedArguments, console: Console) throws(CommandError) {
        guard a.positionals.count <= 1 else { throw .usage("build takes one manifest, got \(a.positionals.count)") }
        let workers = try jobCount(a, console: console)
        let cli = try PresetOptions.overrides(a)
        let check = a.has("--check"), quiet = a.has("--quiet"), json = a.has("--json")
        if check, a.has("--prune") { throw .usage("--check writes nothing, so it cannot --prune; run them one after the other") }
        let report = a.value("--report")

        let manifestPath = BuildManifest.locate(a.positionals.first)
        var manifest = try BuildManifest.loadForCommand(manifestPath) { e in
            if a.positionals.isEmpty, e.isMissingInput { e.problems[0].message += " (name a manifest: wavegen build path/to/wavegen.json)" }
        }
        let lockPath = BuildLock.path(forManifest: manifest.file)
        protectInputs(manifest, lockPath: lockPath)
        if let report { try AtomicFile.checkWritable(report) }
        let jobNames = Set(manifest.jobs.map(\.name))
        let wholeManifest = manifest
        let selected = try selectJobs(a.values["--job"] ?? [], in: &manifest)
        let plan = try BuildPlan.forCommand(manifest, overrides: cli)
        try BuildEngine.checkOutputs(plan, allowOutside: a.has("--allow-outside"), lockPath: lockPath)
        if a.has("--list") {
            for o in plan.outputs { console.out("\(o.path)  (\(o.job.label) \(o.descriptor))\n") }
            for f in plan.files { console.out("\(f.path)  (\(f.job.label) asset catalog)\n") }
            return
        }
        if a.has("--strict") {
            // Every preset checked as validate --strict would, before anything is written.
            _ = try ValidateCommand.checkConfigs(plan, strict: true)
        } else {
            for w in plan.warnings { console.err("warning: \(w)\n") }
        }
        if !quiet { for n in plan.notes { console.err("note: \(n)\n") } }

        var lock: BuildLock?
        switch BuildLock.read(lockPath) {
        case let .lock(l): lock = l
        case .missing:
            if check, plan.outputs.contains(where: { FileManager.default.fileExists(atPath: $0.path) }) { console.err("note: \(lockPath): no lock yet; checking by rendering every output in memory\n") }
        case let .unusable(reason):
            console.err("note: \(lockPath): \(reason); \(check ? "checking by rendering every output in memory" : "rendering every output and writing a new lock")\n")
        }

        let context = BuildEngine.Context(plan: plan, check: check, threads: workers == 1 ? 0 : 1, lock: lock, fonts: FontDigests())
        let progress = ProgressLine(console: console, enabled: console.errIsTerminal && !quiet, total: plan.outputs.count)
        let recorder = LockRecorder(path: lockPath, manifest: manifest.file, enabled: !check, generator: "wavegen \(Wavegen.versionDescription)")
        var lockFailure: CommandError?
        var reported = Set<String>()
        let done = OrderedWork.run(count: plan.outputs.count, workers: workers, work: { i in
            let r = BuildEngine.build(plan.outputs[i], context)
            progress.finished(plan.outputs[i].path)
            return r
        }, started: { _, i in
            progress.started(plan.outputs[i].path)
        }, deliver: { i, result in
            let output = plan.outputs[i]
            progress.clear()
            for line in result.errors where !result.located || reported.insert(line).inserted {
                console.err(result.located ? line + "\n" : "Error: \(output.job.label): \(output.path): \(line)\n")
            }
            for w in result.rendered?.warnings ?? [] { console.err("warning: \(output.job.label): \(output.path): \(w)\n") }
            if !quiet, !json { console.out(textLine(output, result) + "\n") }
            progress.redraw()
            // Recorded as outputs finish, so an interrupted build keeps what it did.
            recorder.record(BuildEngine.lockKey(output, plan: plan), BuildEngine.change(result))
            if lockFailure == nil {
                do throws(CommandError) { try recorder.flushIfDue() } catch { lockFailure = error }
            }
        })
        progress.finish()

        // The asset catalogs' Contents.json files: computed, so written after the outputs.
        var fileResults: [BuildEngine.Result] = []
        for file in plan.files {
            let r = BuildEngine.build(file, context)
            for line in r.errors { console.err("Error: \(file.job.label): \(file.path): \(line)\n") }
            if !quiet, !json { console.out(statusLine(r.status.rawValue, size: r.bytes, path: file.path) + "\n") }
            recorder.record(BuildEngine.lockKey(path: file.path, plan: plan), BuildEngine.change(r))
            fileResults.append(r)
        }

        // Orphans come from the lock alone: files wavegen wrote for this manifest that no job of
        // the whole manifest plans now.
        let root = OnDisk.realPath(plan.manifest.directory.isEmpty ? "." : plan.manifest.directory)
        let planned = Set(BuildPlan.plannedPaths(wholeManifest, overrides: cli).map { BuildEngine.lockKey(path: $0, plan: plan) })
        let orphans = Orphans.find(lock: lock, planned: planned, selected: selected, jobs: jobNames, manifest: manifest,
                                   owner: BuildEngine.owner(plan) ?? BuildManifest.defaultFileName)
        for key in Orphans.vanished(lock: lock, planned: planned, manifest: manifest) { recorder.record(key, .remove) }
        var pruned: [String] = []
        for orphan in orphans {
            let path = orphan.path
            if check {
                console.err("Error: \(path): orphaned: wavegen wrote it for this manifest but no job plans it now (wavegen build --prune deletes it)\n")
                if !quiet, !json { console.out(statusLine("orphaned", size: BuildEngine.fileSize(path), path: path) + "\n") }
            } else if a.has("--prune") {
                if let reason = Orphans.keepReason(orphan, root: root, allowOutside: a.has("--allow-outside")) {
                    // wavegen no longer answers for this file: the lock forgets it.
                    console.err("warning: \(path): orphan not deleted: \(reason)\n")
                    recorder.record(orphan.key, .remove)
                } else if unlink(path) == 0 {
                    pruned.append(path)
                    BuildEngine.removeEmptyCatalogFolders(above: path)
                    recorder.record(orphan.key, .remove)
                    if !quiet, !json { console.out(statusLine("pruned", size: nil, path: path) + "\n") }
                } else {
                    console.err("Error: \(path): cannot delete this orphan: \(String(cString: strerror(errno)))\n")
                }
            }
        }
        if !check, !a.has("--prune"), !orphans.isEmpty {
            console.err("warning: \(orphans.count) \(orphans.count == 1 ? "file" : "files") wavegen wrote for this manifest \(orphans.count == 1 ? "is" : "are") no longer planned (first: \(orphans[0].path)); 'wavegen build --prune' deletes them\n")
        }

        var counts = BuildEngine.Counts(done + fileResults)
        counts.orphaned = check ? orphans.count : 0
        counts.pruned = pruned.count
        let code = BuildEngine.exitCode(done + fileResults, check: check, orphans: counts.orphaned)
        if !quiet, !json { console.out(counts.summary(check: check) + "\n") }
        if check, counts.outOfDate > 0 {
            // The command to run repeats what decides the outputs: the manifest, the jobs and the overrides.
            var rerun = ["wavegen", "build"] + a.positionals
            for job in a.values["--job"] ?? [] { rerun += ["--job", job] }
            for option in PresetOptions.specs.map(\.canonical) {
                for value in a.values[option] ?? [] { rerun += [option, value] }
            }
            if counts.orphaned > 0 { rerun.append("--prune") }
            let command = rerun.map { word in
                word.contains(where: { " '\"$\\*?#&;|<>()[]{}".contains($0) })
                    ? "\"" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "$", with: "\\$") + "\""
                    : word
            }
            console.err("Error: \(counts.outOfDate) of \(counts.total + counts.orphaned) outputs are missing, out of date or orphaned; run '\(command.joined(separator: " "))' to update them\n")
        }
        if let lockFailure { throw lockFailure }
        try recorder.flush()
        let summary = BuildReport.json(plan: plan, results: done, fileResults: fileResults, check: check, counts: counts, code: code, version: Wavegen.versionDescription)
        if json { console.out(summary.serialized() + "\n") }
        if let report { try AtomicFile.write(Array((summary.serialized() + "\n").utf8), to: report) }
        if code != .success { throw CommandError(code, []) }
    }

    /// `--jobs`: outputs rendered at once, one per core by default, at most `Parallelism.maximum`.
    static func jobCount(_ a: ParsedArguments, console: Console) throws(CommandError) -> Int {
        try Parallelism.count(a, option: "--jobs", console: console) ?? Parallelism.clamped(ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Keeps only the jobs named by `--job`; returns their names, or nil when every job is built.
    static func selectJobs(_ names: [String], in manifest: inout BuildManifest) throws(CommandError) -> Set<String>? {
        guard !names.isEmpty else { return nil }
        let known = manifest.jobs.map(\.name)
        for name in names where !known.contains(name) {
            let hint = Suggest.closest(to: name, among: known).map { "did you mean '\($0)'?; " } ?? ""
            throw .usage("--job \(name): no job of that name in \(manifest.file) (\(hint)jobs: \(known.joined(separator: ", ")))")
        }
        manifest.jobs = manifest.jobs.filter { names.contains($0.name) }
        return Set(names)
    }

    /// Protects the files a build reads from its writes: the manifest, the lock (written only as
    /// the lock) and every job's preset with the files it reads.
    static func protectInputs(_ manifest: BuildManifest, lockPath: String) {
        ProtectedFiles.protect([manifest.file], as: "the manifest")
        ProtectedFiles.protect([lockPath], as: "the lock file")
        for job in manifest.jobs { PresetOptions.protectInputs(of: job.preset, overrides: job.overrides) }
    }

    /// `written       3.8 kB  out/loader/spinner.gif`: status, size right-aligned, path.
    static func statusLine(_ status: String, size: Int?, path: String) -> String {
        let text = size.map(NumberText.bytes) ?? ""
        return status.padding(toLength: 11, withPad: " ", startingAt: 0) + "  " + String(repeating: " ", count: max(0, 8 - text.count)) + text + "  " + path
    }

    /// One aligned line per output: status, the size, the path, then what sets it apart.
    ///
    ///     written       3.8 kB  out/loader/spinner.gif
    ///     over-budget  10.3 kB  out/loader/spinner@3x.gif  (budget 8.0 kB)
    static func textLine(_ output: BuildPlan.Output, _ r: BuildEngine.Result) -> String {
        var line = statusLine(r.status.rawValue, size: r.bytes, path: output.path)
        switch r.status {
        case .written, .unchanged:
            if let fit = r.rendered?.fit, !fit.changes.isEmpty { line += "  (fitted: \(fit.summary), \(fit.psnrText))" }
        case .failed, .modified:
            break
        case .overBudget:
            if let budget = output.budget { line += "  (budget \(NumberText.bytes(budget)))" }
        case .missing:
            line += "  (not on disk)"
        case .stale:
            if let previous = r.previousBytes { line += "  (\(NumberText.bytes(previous)) on disk)" }
        }
        return line
    }

}

/// The one-line progress display on a terminal's stderr: `[3/12] out/orb@2x.webp, out/orb.gif`
/// (the count finished, then every output being rendered now), rewritten in place and cleared at
/// the end. Does nothing when disabled.
final class ProgressLine: OutputProgress, @unchecked Sendable {
    private let console: Console
    private let enabled: Bool
    private var total: Int
    private let lock = NSLock()
    private var done = 0
    private var inFlight: [String] = []
    private var current: String?

    init(console: Console, enabled: Bool, total: Int) {
        self.console = console
        self.enabled = enabled
        self.total = total
    }

    static let clearLine = "\r\u{1B}[K"

    func begin(total: Int) { lock.withLock { self.total = total } }

    func started(_ path: String) {
        guard enabled else { return }
        lock.withLock {
            inFlight.append(path)
            show()
        }
    }

    func finished(_ path: String) {
        guard enabled else { return }
        lock.withLock {
            if let i = inFlight.firstIndex(of: path) { inFlight.remove(at: i) }
            done += 1
            show()
        }
    }

    /// The line for the current state; called with the lock held.
    private func show() {
        current = "[\(done)/\(total)] " + (inFlight.isEmpty ? "" : inFlight.joined(separator: ", "))
        console.errControl(ProgressLine.clearLine)
        console.err(current!)
    }

    /// Takes the line away so that other output starts at the left margin.
    func clear() {
        guard enabled else { return }
        lock.withLock { if current != nil { console.errControl(ProgressLine.clearLine) } }
    }

    func redraw() {
        guard enabled else { return }
        lock.withLock { if let current { console.err(current) } }
    }

    func finish() {
        guard enabled else { return }
        lock.withLock {
            if current != nil { console.errControl(ProgressLine.clearLine) }
            current = nil
        }
    }
}
