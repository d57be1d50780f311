import Foundation
import WaveKit
import WaveRender

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

    /// What happened to one output.
    enum Status: String, Sendable {
        case written, unchanged
        case overBudget = "over-budget"
        case failed, missing, stale, modified
    }

    struct Result: Sendable {
        var status: Status
        var rendered: RenderedOutput?
        /// The file's size (rendered, or on disk when nothing was rendered).
        var bytes: Int?
        /// The size of the file that was there before, when it differs.
        var previousBytes: Int?
        /// Problem lines without the job/output prefix.
        var errors: [String] = []
        var code: ExitCode = .success
        /// The errors are document problems in the compiler form: printed as they are, once per build
        /// however many outputs they stop.
        var located = false
        /// What the lock records for this output after the build (nil: keep what it had).
        var lockEntry: BuildLock.Entry?
    }

    /// Everything one output's build needs besides the output.
    struct Context: Sendable {
        var plan: BuildPlan
        var check: Bool
        var threads: Int
        /// The lock read at the start, nil when there is none or it is unusable.
        var lock: BuildLock?
        var fonts: FontDigests
    }

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
        try checkOutputs(plan, allowOutside: a.has("--allow-outside"), lockPath: lockPath)
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

        let context = Context(plan: plan, check: check, threads: workers == 1 ? 0 : 1, lock: lock, fonts: FontDigests())
        let progress = ProgressLine(console: console, enabled: console.errIsTerminal && !quiet, total: plan.outputs.count)
        let recorder = LockRecorder(path: lockPath, manifest: manifest.file, enabled: !check)
        var lockFailure: CommandError?
        var reported = Set<String>()
        let done = OrderedWork.run(count: plan.outputs.count, workers: workers, work: { i in
            let r = build(plan.outputs[i], context)
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
            recorder.record(lockKey(output, plan: plan), change(result))
            if lockFailure == nil {
                do throws(CommandError) { try recorder.flushIfDue() } catch { lockFailure = error }
            }
        })
        progress.finish()

        // The asset catalogs' Contents.json files: computed, so written after the outputs.
        var fileResults: [Result] = []
        for file in plan.files {
            let r = build(file, context)
            for line in r.errors { console.err("Error: \(file.job.label): \(file.path): \(line)\n") }
            if !quiet, !json { console.out(statusLine(r.status.rawValue, size: r.bytes, path: file.path) + "\n") }
            recorder.record(lockKey(path: file.path, plan: plan), change(r))
            fileResults.append(r)
        }

        // Orphans come from the lock alone: files wavegen wrote for this manifest that no job of
        // the whole manifest plans now.
        let root = OnDisk.realPath(plan.manifest.directory.isEmpty ? "." : plan.manifest.directory)
        let planned = Set(BuildPlan.plannedPaths(wholeManifest, overrides: cli).map { lockKey(path: $0, plan: plan) })
        let orphans = Orphans.find(lock: lock, planned: planned, selected: selected, jobs: jobNames, manifest: manifest,
                                   owner: owner(plan) ?? BuildManifest.defaultFileName)
        for key in Orphans.vanished(lock: lock, planned: planned, manifest: manifest) { recorder.record(key, .remove) }
        var pruned: [String] = []
        for orphan in orphans {
            let path = orphan.path
            if check {
                console.err("Error: \(path): orphaned: wavegen wrote it for this manifest but no job plans it now (wavegen build --prune deletes it)\n")
                if !quiet, !json { console.out(statusLine("orphaned", size: fileSize(path), path: path) + "\n") }
            } else if a.has("--prune") {
                if let reason = Orphans.keepReason(orphan, root: root, allowOutside: a.has("--allow-outside")) {
                    // wavegen no longer answers for this file: the lock forgets it.
                    console.err("warning: \(path): orphan not deleted: \(reason)\n")
                    recorder.record(orphan.key, .remove)
                } else if unlink(path) == 0 {
                    pruned.append(path)
                    removeEmptyCatalogFolders(above: path)
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

        var counts = Counts(done + fileResults)
        counts.orphaned = check ? orphans.count : 0
        counts.pruned = pruned.count
        let code = exitCode(done + fileResults, check: check, orphans: counts.orphaned)
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
        let summary = BuildReport.json(plan: plan, results: done, fileResults: fileResults, check: check, counts: counts, code: code)
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

    /// Refuses, once per job, outputs that would land on a file the build reads, or outside the
    /// manifest's folder unless `allowOutside`. Both are decided where the write would land: the
    /// real path of the output's folder (so `out -> /elsewhere` is outside) and the file's device
    /// and inode where it exists (so a link to the manifest is the manifest).
    static func checkOutputs(_ plan: BuildPlan, allowOutside: Bool, lockPath: String) throws(CommandError) {
        let root = OnDisk.realPath(plan.manifest.directory.isEmpty ? "." : plan.manifest.directory)
        let lockKey = OnDisk.landingPath(lockPath)
        // Why a write to `path` (landing at `key`) is refused, or nil; `change` says what to edit.
        func problem(_ path: String, key: String, change: String) -> String? {
            if key == lockKey { return "\(path) is the lock file, which this build writes; change the \(change)" }
            if let role = ProtectedFiles.role(of: path) { return "\(path) is \(role), which this build reads; change the \(change)" }
            guard !allowOutside, !OnDisk.isInside(key, folder: root) else { return nil }
            let through = key == BuildPlan.normalised(path) ? "" : " (through a link: it lands in \(key))"
            return "\(path) is outside the manifest's folder\(through); pass --allow-outside to write there"
        }
        var problems: [DocumentProblem] = []
        var seen = Set<Int>()
        let writes = plan.outputs.map { (path: $0.path, key: $0.key, job: $0.job, field: "output", change: "output template") }
            + plan.files.map { (path: $0.path, key: $0.key, job: $0.job, field: "catalog", change: "catalog") }
        for w in writes where !seen.contains(w.job.index) {
            guard let message = problem(w.path, key: w.key, change: w.change) else { continue }
            seen.insert(w.job.index)
            problems.append(DocumentProblem(file: plan.manifest.file, line: w.job.outputLine, column: w.job.outputColumn,
                                            keyPath: "jobs[\(w.job.index)].\(w.field)", message: message))
        }
        if !problems.isEmpty { throw CommandError(DocumentError(problems)) }
    }

    /// An output's path as the lock records it: relative to the manifest's folder.
    static func lockKey(_ output: BuildPlan.Output, plan: BuildPlan) -> String {
        lockKey(path: output.path, plan: plan)
    }

    static func lockKey(path: String, plan: BuildPlan) -> String {
        let key = BuildPlan.normalised(path)
        let root = BuildPlan.normalised(plan.manifest.directory.isEmpty ? "." : plan.manifest.directory)
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return key.hasPrefix(prefix) ? String(key.dropFirst(prefix.count)) : key
    }

    /// Builds one output: decides from the lock whether it needs rendering, renders and compares
    /// with the file on disk when it does, and writes it unless checking.
    static func build(_ output: BuildPlan.Output, _ context: Context) -> Result {
        let loaded: BuildPlan.Loaded
        switch context.plan.configs[output.config].result {
        case let .failure(f): return Result(status: .failed, errors: f.lines, code: f.exitCode, located: f.located)
        case let .success(l): loaded = l
        }
        let inputs: OutputDigest.Inputs
        do {
            inputs = try OutputDigest.inputs(loaded, format: output.format, live: output.job.live, fitTo: output.fitLimit, fonts: context.fonts)
        } catch {
            return Result(status: .failed, errors: error.lines, code: error.exitCode, located: error.located)
        }
        let existing: [UInt8]?
        switch readExisting(output.path) {
        case let .success(bytes): existing = bytes
        case let .failure(f): return Result(status: .failed, errors: f.lines, code: .failure)
        }
        if let lock = context.lock {
            let entry = lock.entries[lockKey(output, plan: context.plan)]
            let fileDigest = existing.map(OutputDigest.file)
            if let existing, let entry, entry.input == inputs.combined, entry.file == fileDigest {
                if let over = overBudget(output, size: existing.count) { return over }
                return Result(status: .unchanged, bytes: existing.count,
                              lockEntry: BuildLock.Entry(input: entry.input, file: entry.file, job: output.job.name, manifest: owner(context.plan), parts: inputs.parts))
            }
            if context.check {
                guard let existing else { return Result(status: .missing, errors: ["is missing"], code: .failure) }
                guard let entry, entry.input == inputs.combined else {
                    return Result(status: .stale, bytes: existing.count, errors: [staleReason(entry, inputs)], code: .failure)
                }
                return Result(status: .modified, bytes: existing.count,
                              errors: ["was modified: its bytes are not those wavegen wrote (\(entry.file.prefix(12))… in wavegen.lock)"], code: .failure)
            }
        }
        return render(output, loaded: loaded, inputs: inputs, existing: existing, check: context.check, threads: context.threads,
                      owner: owner(context.plan))
    }

    /// Builds one computed file (an asset catalog's `Contents.json`): its bytes are known, so it is
    /// compared with the file on disk and written when it differs. Its lock entry's input digest is
    /// that of the bytes themselves.
    static func build(_ file: BuildPlan.File, _ context: Context) -> Result {
        let digest = OutputDigest.file(file.bytes)
        let entry = BuildLock.Entry(input: digest, file: digest, job: file.job.name, manifest: owner(context.plan))
        let existing: [UInt8]?
        switch readExisting(file.path) {
        case let .success(bytes): existing = bytes
        case let .failure(f): return Result(status: .failed, errors: f.lines, code: .failure)
        }
        if let existing, existing == file.bytes { return Result(status: .unchanged, bytes: existing.count, lockEntry: entry) }
        if context.check {
            guard let existing else { return Result(status: .missing, bytes: file.bytes.count, errors: ["is missing"], code: .failure) }
            if let old = context.lock?.entries[lockKey(path: file.path, plan: context.plan)], old.file == OutputDigest.file(existing) {
                return Result(status: .stale, bytes: existing.count, errors: ["is stale: the asset catalog entry it describes changed"], code: .failure)
            }
            return Result(status: .modified, bytes: existing.count,
                          errors: ["was modified: its bytes are not those wavegen writes for this asset catalog"], code: .failure)
        }
        if let failure = write(file.bytes, to: file.path) { return failure }
        return Result(status: .written, bytes: file.bytes.count, previousBytes: existing?.count, lockEntry: entry)
    }

    /// After pruning `path`, removes the data set folder it was in (`NAME.dataset`) when that is
    /// now empty, and then the asset catalog (`*.xcassets`) when that is: no empty data set is left
    /// for Xcode to show.
    static func removeEmptyCatalogFolders(above path: String) {
        var folder = PathText.folder(of: path)
        while folder.hasSuffix(".dataset") || folder.hasSuffix(".xcassets") {
            let rest = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? ["?"]
            // Only the catalog's own Contents.json left is not yet empty: that file is an orphan of its own.
            guard rest.isEmpty, rmdir(folder) == 0 else { return }
            folder = PathText.folder(of: folder)
        }
    }

    /// Writes `bytes` to `path` atomically, creating its folders; the failed result when it cannot.
    static func write(_ bytes: [UInt8], to path: String) -> Result? {
        let folder = PathText.folder(of: path)
        if !folder.isEmpty {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), !isDirectory.boolValue {
                return Result(status: .failed, bytes: bytes.count, errors: ["cannot write: \(folder) is a file, not a folder"], code: .cannotWrite)
            }
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                return Result(status: .failed, bytes: bytes.count, errors: ["cannot create the folder \(folder): \(error.localizedDescription)"], code: .cannotWrite)
            }
        }
        do {
            try AtomicFile.checkWritable(path)
            try AtomicFile.write(bytes, to: path)
        } catch {
            return Result(status: .failed, bytes: bytes.count,
                          errors: error.lines.map { $0.hasPrefix(path + ": ") ? String($0.dropFirst(path.count + 2)) : $0 }, code: error.code)
        }
        return nil
    }

    /// The lock's record of which manifest wrote a file: nil for wavegen.json, else its file name.
    static func owner(_ plan: BuildPlan) -> String? {
        let name = String(plan.manifest.file.split(separator: "/").last ?? "")
        return name == BuildManifest.defaultFileName ? nil : name
    }

    /// Why an output on disk is stale: which of its inputs changed since the lock recorded it.
    static func staleReason(_ entry: BuildLock.Entry?, _ inputs: OutputDigest.Inputs) -> String {
        guard let entry else { return "is stale: wavegen.lock has no record of writing it" }
        let changes = OutputDigest.changes(from: entry.parts, to: inputs.parts)
        guard !changes.isEmpty else {
            return "is stale: its inputs changed since it was written (preset, overrides, assets or wavegen's encoders; the lock predates recording which)"
        }
        return "is stale: since it was written, " + changes.map(\.changed).joined(separator: "; ")
    }

    /// The over-budget result for an output of `size` bytes, if its budget is smaller.
    static func overBudget(_ output: BuildPlan.Output, size: Int, rendered: RenderedOutput? = nil) -> Result? {
        guard let budget = output.budget, size > budget else { return nil }
        return Result(status: .overBudget, rendered: rendered, bytes: size,
                      errors: ["\(size) bytes is over the budget of \(budget) bytes (\(output.job.budget.source(for: output.format))); not written"],
                      code: .failure)
    }

    /// Renders an output in memory and compares it with `existing`; writes it unless `check`.
    static func render(_ output: BuildPlan.Output, loaded: BuildPlan.Loaded, inputs: OutputDigest.Inputs, existing: [UInt8]?, check: Bool, threads: Int,
                       owner: String?) -> Result {
        let rendered: RenderedOutput
        do {
            rendered = try RenderedOutput.render(loaded, format: output.format, live: output.job.live, fitTo: output.fitLimit, threads: threads)
        } catch where error.kind == .overBudget {
            return Result(status: .overBudget, errors: error.lines.map { $0 + " (\(output.job.budget.source(for: output.format)), fit)" }, code: .failure)
        } catch {
            return Result(status: .failed, errors: error.lines, code: error.exitCode, located: error.located)
        }
        if let over = overBudget(output, size: rendered.bytes.count, rendered: rendered) { return over }
        let entry = BuildLock.Entry(input: inputs.combined, file: OutputDigest.file(rendered.bytes), job: output.job.name, manifest: owner, parts: inputs.parts)
        if let existing, existing == rendered.bytes {
            return Result(status: .unchanged, rendered: rendered, bytes: rendered.bytes.count, lockEntry: entry)
        }
        if check {
            guard let existing else {
                return Result(status: .missing, rendered: rendered, bytes: rendered.bytes.count, errors: ["is missing"], code: .failure)
            }
            return Result(status: .stale, rendered: rendered, bytes: rendered.bytes.count, previousBytes: existing.count,
                          errors: ["differs from what the manifest renders (\(existing.count) bytes on disk, \(rendered.bytes.count) rendered)"],
                          code: .failure)
        }
        let folder = PathText.folder(of: output.path)
        if !folder.isEmpty {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), !isDirectory.boolValue {
                return Result(status: .failed, rendered: rendered, bytes: rendered.bytes.count,
                              errors: ["cannot write: \(folder) is a file, not a folder"], code: .cannotWrite)
            }
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                return Result(status: .failed, rendered: rendered, bytes: rendered.bytes.count,
                              errors: ["cannot create the folder \(folder): \(error.localizedDescription)"], code: .cannotWrite)
            }
        }
        do {
            try AtomicFile.checkWritable(output.path)
            try AtomicFile.write(rendered.bytes, to: output.path)
        } catch {
            return Result(status: .failed, rendered: rendered, bytes: rendered.bytes.count,
                          errors: error.lines.map { $0.hasPrefix(output.path + ": ") ? String($0.dropFirst(output.path.count + 2)) : $0 },
                          code: error.code)
        }
        return Result(status: .written, rendered: rendered, bytes: rendered.bytes.count, previousBytes: existing?.count, lockEntry: entry)
    }

    /// What a build's result does to the output's lock entry: a file wavegen wrote or found
    /// unchanged is recorded; an output over budget is forgotten (its file was not written); a
    /// failed output keeps its old entry.
    static func change(_ r: Result) -> LockRecorder.Change {
        if let e = r.lockEntry { return .set(e) }
        return r.status == .overBudget ? .remove : .keep
    }

    /// The bytes of the file at `path`, nil when there is none.
    static func readExisting(_ path: String) -> Swift.Result<[UInt8]?, RenderError> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .success(nil) }
        if isDirectory.boolValue { return .failure(RenderError(.failure, ["cannot write: is a directory"])) }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(RenderError(.failure, ["cannot read the existing file to compare"]))
        }
        return .success([UInt8](data))
    }

    static func fileSize(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
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
    static func textLine(_ output: BuildPlan.Output, _ r: Result) -> String {
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

    /// What a build did, counted with the same words in the text and the JSON summary.
    struct Counts {
        var written = 0, unchanged = 0, overBudget = 0, failed = 0, missing = 0, stale = 0, modified = 0
        var orphaned = 0, pruned = 0
        var total = 0

        init(_ results: [Result]) {
            total = results.count
            for r in results {
                switch r.status {
                case .written: written += 1
                case .unchanged: unchanged += 1
                case .overBudget: overBudget += 1
                case .failed: failed += 1
                case .missing: missing += 1
                case .stale: stale += 1
                case .modified: modified += 1
                }
            }
        }

        /// Outputs `--check` finds out of date.
        var outOfDate: Int { missing + stale + modified + orphaned }

        /// `12 outputs: 3 written, 9 unchanged, 0 over budget, 0 failed`
        func summary(check: Bool) -> String {
            let noun = total == 1 ? "output" : "outputs"
            var parts = check
                ? ["\(unchanged) unchanged", "\(missing) missing", "\(stale) stale", "\(modified) modified"]
                : ["\(written) written", "\(unchanged) unchanged"]
            parts += ["\(overBudget) over budget", "\(failed) failed"]
            if orphaned > 0 { parts.append("\(orphaned) orphaned") }
            if pruned > 0 { parts.append("\(pruned) pruned") }
            return "\(total) \(noun): " + parts.joined(separator: ", ")
        }
    }

    /// 66 or 65 when a job's preset is missing or wrong (as `render` exits), 73 when an output
    /// cannot be written, else 1 when anything failed or (with --check) is out of date, else 0.
    static func exitCode(_ results: [Result], check: Bool, orphans: Int) -> ExitCode {
        let codes = Set(results.map(\.code))
        for code in [ExitCode.noInput, .dataError, .cannotWrite, .failure] where codes.contains(code) { return code }
        return check && orphans > 0 ? .failure : .success
    }
}

/// The one-line progress display on a terminal's stderr: `[3/12] out/orb@2x.webp, out/orb.gif`
/// (the count finished, then every output being rendered now), rewritten in place and cleared at
/// the end. Does nothing when disabled.
final class ProgressLine: @unchecked Sendable {
    private let console: Console
    private let enabled: Bool
    private let total: Int
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
