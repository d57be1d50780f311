import WavePlatform
import WaveKit
import WaveRender

/// The build engine: decides, renders and writes one output of a plan at a time.
public enum BuildEngine {
    /// What happened to one output.
    public enum Status: String, Sendable {
        case written, unchanged
        case overBudget = "over-budget"
        case failed, missing, stale, modified
    }

    public struct Result: Sendable {
        public var status: Status
        public var rendered: RenderedOutput?
        /// The file's size (rendered, or on disk when nothing was rendered).
        public var bytes: Int?
        /// The size of the file that was there before, when it differs.
        public var previousBytes: Int?
        /// Why the output failed or is out of date, nil when it is fine; its problems name no job or
        /// output (the printer adds them).
        public var error: WaveError?
        /// What the lock records for this output after the build (nil: keep what it had).
        public var lockEntry: BuildLock.Entry?

        /// The error's lines as a report shows them.
        public var errors: [String] { error?.lines ?? [] }
        public var code: ExitCode { error?.exitCode ?? .success }
    }

    /// Everything one output's build needs besides the output.
    public struct Context: Sendable {
        public var plan: BuildPlan
        public var check: Bool
        public var threads: Int
        /// The lock read at the start, nil when there is none or it is unusable.
        public var lock: BuildLock?
        public var fonts: FontDigests

        public init(plan: BuildPlan, check: Bool, threads: Int, lock: BuildLock?, fonts: FontDigests) {
            self.plan = plan
            self.check = check
            self.threads = threads
            self.lock = lock
            self.fonts = fonts
        }
    }

    /// Refuses, once per job, outputs that would land on a file the build reads, or outside the
    /// manifest's folder unless `allowOutside`. Both are decided where the write would land: the
    /// real path of the output's folder (so `out -> /elsewhere` is outside) and the file's device
    /// and inode where it exists (so a link to the manifest is the manifest).
    public static func checkOutputs(_ plan: BuildPlan, allowOutside: Bool, lockPath: String) throws(WaveError) {
        let root = OnDisk.realPath(plan.origin.directory.isEmpty ? "." : plan.origin.directory)
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
            problems.append(DocumentProblem(file: plan.origin.file, line: w.job.outputLine, column: w.job.outputColumn,
                                            keyPath: "jobs[\(w.job.index)].\(w.field)", message: message))
        }
        if !problems.isEmpty { throw WaveError(problems) }
    }

    /// An output's path as the lock records it: relative to the manifest's folder.
    public static func lockKey(_ output: BuildPlan.Output, plan: BuildPlan) -> String {
        lockKey(path: output.path, plan: plan)
    }

    public static func lockKey(path: String, plan: BuildPlan) -> String {
        let key = BuildPlan.normalised(path)
        let root = BuildPlan.normalised(plan.origin.directory.isEmpty ? "." : plan.origin.directory)
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return key.hasPrefix(prefix) ? String(key.dropFirst(prefix.count)) : key
    }

    /// Builds one output: decides from the lock whether it needs rendering, renders and compares
    /// with the file on disk when it does, and writes it unless checking.
    public static func build(_ output: BuildPlan.Output, _ context: Context) -> Result {
        let loaded: BuildPlan.Loaded
        switch context.plan.configs[output.config].result {
        case let .failure(f): return Result(status: .failed, error: f)
        case let .success(l): loaded = l
        }
        let inputs: OutputDigest.Inputs
        do {
            inputs = try OutputDigest.inputs(loaded, format: output.format, live: output.job.live, fitTo: output.fitLimit, fonts: context.fonts)
        } catch {
            return Result(status: .failed, error: error)
        }
        let existing: [UInt8]?
        switch readExisting(output.path) {
        case let .success(bytes): existing = bytes
        case let .failure(f): return Result(status: .failed, error: f)
        }
        if let lock = context.lock {
            let entry = lock.entries[lockKey(output, plan: context.plan)]
            let fileDigest = existing.map(OutputDigest.file)
            if let existing, let entry, entry.input == inputs.combined, entry.file == fileDigest {
                if let over = overBudget(output, size: existing.count) { return over }
                return Result(status: .unchanged, bytes: existing.count,
                              lockEntry: BuildLock.Entry(input: entry.input, file: entry.file, job: output.job.name, manifest: owner(context.plan), parts: inputs.parts,
                                                         fit: output.fitLimit == nil ? nil : entry.fit))
            }
            if context.check {
                guard let existing else { return Result(status: .missing, error: WaveError(.failure, ["is missing"])) }
                guard let entry, entry.input == inputs.combined else {
                    return Result(status: .stale, bytes: existing.count, error: WaveError(.failure, [staleReason(entry, inputs)]))
                }
                return Result(status: .modified, bytes: existing.count,
                              error: WaveError(.failure, ["was modified: its bytes are not those wavegen wrote (\(entry.file.prefix(12))… in wavegen.lock)"]))
            }
        }
        // A fit of these very inputs recorded in the lock is tried first (its file is missing or
        // was changed by hand): the search runs only when that choice does not make the file the
        // lock records.
        var recorded: (knobs: [SizeFit.Knob: Double], file: String)?
        if output.fitLimit != nil, let entry = context.lock?.entries[lockKey(output, plan: context.plan)], entry.input == inputs.combined,
           let fit = entry.fit {
            let knobs = fit.compactMap { k, v in SizeFit.Knob(rawValue: k).map { ($0, v) } }
            if knobs.count == fit.count { recorded = (Dictionary(uniqueKeysWithValues: knobs), entry.file) }
        }
        return render(output, loaded: loaded, inputs: inputs, existing: existing, check: context.check, threads: context.threads,
                      owner: owner(context.plan), recordedFit: recorded)
    }

    /// A fit's choice as the lock records it: each turned knob by name.
    static func lockFit(_ fit: SizeFit.Candidate?) -> [String: Double]? {
        fit.map { Dictionary(uniqueKeysWithValues: $0.turned.map { ($0.key.rawValue, $0.value) }) }
    }

    /// Builds one computed file (an asset catalog's `Contents.json`): its bytes are known, so it is
    /// compared with the file on disk and written when it differs. Its lock entry's input digest is
    /// that of the bytes themselves.
    public static func build(_ file: BuildPlan.File, _ context: Context) -> Result {
        let digest = OutputDigest.file(file.bytes)
        let entry = BuildLock.Entry(input: digest, file: digest, job: file.job.name, manifest: owner(context.plan))
        let existing: [UInt8]?
        switch readExisting(file.path) {
        case let .success(bytes): existing = bytes
        case let .failure(f): return Result(status: .failed, error: f)
        }
        if let existing, existing == file.bytes { return Result(status: .unchanged, bytes: existing.count, lockEntry: entry) }
        if context.check {
            guard let existing else { return Result(status: .missing, bytes: file.bytes.count, error: WaveError(.failure, ["is missing"])) }
            if let old = context.lock?.entries[lockKey(path: file.path, plan: context.plan)], old.file == OutputDigest.file(existing) {
                return Result(status: .stale, bytes: existing.count, error: WaveError(.failure, ["is stale: the asset catalog entry it describes changed"]))
            }
            return Result(status: .modified, bytes: existing.count,
                          error: WaveError(.failure, ["was modified: its bytes are not those wavegen writes for this asset catalog"]))
        }
        if let failure = write(file.bytes, to: file.path) { return failure }
        return Result(status: .written, bytes: file.bytes.count, previousBytes: existing?.count, lockEntry: entry)
    }

    /// After pruning `path`, removes the data set folder it was in (`NAME.dataset`) when that is
    /// now empty, and then the asset catalog (`*.xcassets`) when that is: no empty data set is left
    /// for Xcode to show.
    public static func removeEmptyCatalogFolders(above path: String) {
        var folder = PathText.folder(of: path)
        while folder.hasSuffix(".dataset") || folder.hasSuffix(".xcassets") {
            let rest = (try? FileSystem.names(in: folder)) ?? ["?"]
            // Only the catalog's own Contents.json left is not yet empty: that file is an orphan of its own.
            guard rest.isEmpty, (try? FileSystem.removeDirectory(folder)) != nil else { return }
            folder = PathText.folder(of: folder)
        }
    }

    /// Writes `bytes` to `path` atomically, creating its folders; the failed result when it cannot.
    public static func write(_ bytes: [UInt8], to path: String) -> Result? {
        let folder = PathText.folder(of: path)
        if !folder.isEmpty {
            if let kind = FileSystem.kind(of: folder), kind != .directory {
                return Result(status: .failed, bytes: bytes.count, error: WaveError(.cannotWrite, ["cannot write: \(folder) is a file, not a folder"]))
            }
            do {
                try FileSystem.createDirectory(folder)
            } catch {
                return Result(status: .failed, bytes: bytes.count, error: WaveError(.cannotWrite, [BuildEngine.folderFailure(folder, error)]))
            }
        }
        do {
            try AtomicFile.checkWritable(path, naming: false)
            try AtomicFile.write(bytes, to: path, naming: false)
        } catch {
            return Result(status: .failed, bytes: bytes.count, error: error)
        }
        return nil
    }

    /// The lock's record of which manifest wrote a file: nil for wavegen.json, else its file name.
    public static func owner(_ plan: BuildPlan) -> String? {
        let name = String(plan.origin.file.split(separator: "/").last ?? "")
        return name == BuildManifest.defaultFileName ? nil : name
    }

    /// Why an output on disk is stale: which of its inputs changed since the lock recorded it.
    public static func staleReason(_ entry: BuildLock.Entry?, _ inputs: OutputDigest.Inputs) -> String {
        guard let entry else { return "is stale: wavegen.lock has no record of writing it" }
        let changes = OutputDigest.changes(from: entry.parts, to: inputs.parts)
        guard !changes.isEmpty else {
            return "is stale: its inputs changed since it was written (preset, overrides, assets or wavegen's encoders; the lock predates recording which)"
        }
        return "is stale: since it was written, " + changes.map(\.changed).joined(separator: "; ")
    }

    /// The over-budget result for an output of `size` bytes, if its budget is smaller.
    public static func overBudget(_ output: BuildPlan.Output, size: Int, rendered: RenderedOutput? = nil) -> Result? {
        guard let budget = output.budget, size > budget else { return nil }
        return Result(status: .overBudget, rendered: rendered, bytes: size,
                      error: WaveError(.overBudget, ["\(size) bytes is over the budget of \(budget) bytes (\(output.job.budget.source(for: output.format))); not written"]))
    }

    /// Renders an output in memory and compares it with `existing`; writes it unless `check`.
    public static func render(_ output: BuildPlan.Output, loaded: BuildPlan.Loaded, inputs: OutputDigest.Inputs, existing: [UInt8]?, check: Bool, threads: Int,
                       owner: String?, recordedFit: (knobs: [SizeFit.Knob: Double], file: String)? = nil) -> Result {
        let rendered: RenderedOutput
        do {
            rendered = try RenderedOutput.render(loaded, format: output.format, live: output.job.live, fitTo: output.fitLimit,
                                                 recordedFit: recordedFit, threads: threads)
        } catch where error.kind == .overBudget {
            let budget = output.job.budget.source(for: output.format)
            return Result(status: .overBudget, error: error.changingMessages { $0 + " (\(budget), fit)" })
        } catch {
            return Result(status: .failed, error: error)
        }
        if let over = overBudget(output, size: rendered.bytes.count, rendered: rendered) { return over }
        let entry = BuildLock.Entry(input: inputs.combined, file: OutputDigest.file(rendered.bytes), job: output.job.name, manifest: owner, parts: inputs.parts,
                                    fit: lockFit(rendered.fit))
        if let existing, existing == rendered.bytes {
            return Result(status: .unchanged, rendered: rendered, bytes: rendered.bytes.count, lockEntry: entry)
        }
        if check {
            guard let existing else {
                return Result(status: .missing, rendered: rendered, bytes: rendered.bytes.count, error: WaveError(.failure, ["is missing"]))
            }
            return Result(status: .stale, rendered: rendered, bytes: rendered.bytes.count, previousBytes: existing.count,
                          error: WaveError(.failure, ["differs from what the manifest renders (\(existing.count) bytes on disk, \(rendered.bytes.count) rendered)"]))
        }
        let folder = PathText.folder(of: output.path)
        if !folder.isEmpty {
            if let kind = FileSystem.kind(of: folder), kind != .directory {
                return Result(status: .failed, rendered: rendered, bytes: rendered.bytes.count,
                              error: WaveError(.cannotWrite, ["cannot write: \(folder) is a file, not a folder"]))
            }
            do {
                try FileSystem.createDirectory(folder)
            } catch {
                return Result(status: .failed, rendered: rendered, bytes: rendered.bytes.count,
                              error: WaveError(.cannotWrite, [BuildEngine.folderFailure(folder, error)]))
            }
        }
        do {
            try AtomicFile.checkWritable(output.path, naming: false)
            try AtomicFile.write(rendered.bytes, to: output.path, naming: false)
        } catch {
            return Result(status: .failed, rendered: rendered, bytes: rendered.bytes.count, error: error)
        }
        return Result(status: .written, rendered: rendered, bytes: rendered.bytes.count, previousBytes: existing?.count, lockEntry: entry)
    }

    /// What a build's result does to the output's lock entry: a file wavegen wrote or found
    /// unchanged is recorded; an output over budget is forgotten (its file was not written); a
    /// failed output keeps its old entry.
    public static func change(_ r: Result) -> LockRecorder.Change {
        if let e = r.lockEntry { return .set(e) }
        return r.status == .overBudget ? .remove : .keep
    }

    /// The bytes of the file at `path`, nil when there is none.
    public static func readExisting(_ path: String) -> Swift.Result<[UInt8]?, WaveError> {
        guard let kind = FileSystem.kind(of: path) else { return .success(nil) }
        if kind == .directory { return .failure(WaveError(.failure, ["cannot write: is a directory"])) }
        guard let data = FileSystem.contents(of: path) else {
            return .failure(WaveError(.failure, ["cannot read the existing file to compare"]))
        }
        return .success(data)
    }

    public static func fileSize(_ path: String) -> Int? {
        FileSystem.size(of: path)
    }

    /// The error line for a folder that cannot be created: the folder, and the folder on its way
    /// that failed when that is another one.
    static func folderFailure(_ folder: String, _ error: FileSystem.Failure) -> String {
        let step = error.path == folder ? "" : " (at \(error.path))"
        return "cannot create the folder \(folder): \(error.reason)\(step)"
    }

    /// What a build did, counted with the same words in the text and the JSON summary.
    public struct Counts {
        public var written = 0, unchanged = 0, overBudget = 0, failed = 0, missing = 0, stale = 0, modified = 0
        public var orphaned = 0, pruned = 0
        public var total = 0

        public init(_ results: [Result]) {
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
        public var outOfDate: Int { missing + stale + modified + orphaned }

        /// `12 outputs: 3 written, 9 unchanged, 0 over budget, 0 failed`
        public func summary(check: Bool) -> String {
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

    /// The kind of failure a build ends in: the exit code 66 or 65 when a job's preset is missing
    /// or wrong (as `render` exits), 73 when an output cannot be written, else 1 when anything
    /// failed or (with --check) is out of date; nil (exit 0) when nothing did.
    public static func failure(_ results: [Result], check: Bool, orphans: Int) -> WaveError.Kind? {
        let kinds = results.compactMap(\.error?.kind)
        for code in [ExitCode.noInput, .dataError, .cannotWrite, .failure] {
            if let kind = kinds.first(where: { $0.exitCode == code }) { return kind }
        }
        return check && orphans > 0 ? .failure : nil
    }
}
