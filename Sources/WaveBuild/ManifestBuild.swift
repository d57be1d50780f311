import WavePlatform
import WaveKit
import WaveRender

/// One build of a manifest, as a program runs it: plan (`init`), then `run`, which renders what
/// changed, writes it, records the lock, finds orphans (and prunes them) and returns a typed
/// result for every output. What happens along the way is told to `events` in order, for a
/// caller to print.
///
///     let build = try ManifestBuild(manifest: try BuildManifest.loadForCommand("wavegen.json"), options: .init(workers: 4))
///     let outcome = build.run()
///     for (output, result) in zip(build.plan.outputs, outcome.outputs) { print(output.path, result.status) }
public struct ManifestBuild {
    public struct Options: Sendable {
        /// Render nothing and write nothing; report what is missing, stale, modified or orphaned.
        public var check = false
        /// Delete orphans (only while they hold the bytes wavegen wrote).
        public var prune = false
        /// Allow outputs outside the manifest's folder.
        public var allowOutside = false
        /// Check every preset as `validate --strict` would before writing anything.
        public var strict = false
        /// Overrides applied to every job after its own.
        public var overrides: [PresetOverride] = []
        /// Outputs made at once.
        public var workers: Int
        /// What the lock records as its writer (`wavegen 0.1.0 (abc1234)`).
        public var generator = "wavegen \(WavegenVersion.current)"

        public init(check: Bool = false, prune: Bool = false, allowOutside: Bool = false, strict: Bool = false,
                    overrides: [PresetOverride] = [], workers: Int, generator: String = "wavegen \(WavegenVersion.current)") {
            self.check = check
            self.prune = prune
            self.allowOutside = allowOutside
            self.strict = strict
            self.overrides = overrides
            self.workers = workers
            self.generator = generator
        }
    }

    /// What a build tells its caller as it goes.
    public enum Event {
        /// A warning of the plan or of a rendered output, without the `warning: ` prefix.
        case warning(String)
        /// Something the build does differently from what one may expect (plan notes).
        case planNote(String)
        /// About the lock file (missing, unusable).
        case lockNote(String)
        /// A problem line, as printed on stderr (with its `Error: ` prefix or in compiler form).
        case error(String)
        /// An output finished (delivered in plan order, as soon as it and those before it are done).
        case output(BuildPlan.Output, BuildEngine.Result)
        /// An asset catalog's computed file finished.
        case file(BuildPlan.File, BuildEngine.Result)
        /// An orphan found while checking.
        case orphaned(String)
        /// An orphan deleted.
        case pruned(String)
    }

    /// What a build did.
    public struct Outcome {
        /// One result per `plan.outputs`, in order.
        public var outputs: [BuildEngine.Result]
        /// One result per `plan.files`, in order.
        public var files: [BuildEngine.Result]
        /// Files the lock records as written for this manifest that no job plans now.
        public var orphans: [String]
        public var pruned: [String]
        public var counts: BuildEngine.Counts
        /// What kind of failure the build ends in, nil when it succeeded.
        public var failure: WaveError.Kind?
        /// The lock could not be written: the outputs were, but the next build will not know.
        public var lockFailure: WaveError?

        public var code: ExitCode { failure?.exitCode ?? .success }
    }

    public let options: Options
    /// The manifest with only the selected jobs, and the whole manifest (orphans are decided against it).
    public let manifest: BuildManifest
    public let wholeManifest: BuildManifest
    public let selected: Set<String>?
    public let lockPath: String
    public let outputs: OutputSet
    public var plan: BuildPlan { outputs.plan }

    /// Plans `manifest` (only the jobs `selected` names, all when nil): protects its inputs from
    /// its writes, and refuses outputs on inputs or outside the manifest's folder.
    public init(manifest whole: BuildManifest, selected: Set<String>? = nil, options: Options) throws(WaveError) {
        self.options = options
        wholeManifest = whole
        self.selected = selected
        var manifest = whole
        if let selected { manifest.jobs = manifest.jobs.filter { selected.contains($0.name) } }
        self.manifest = manifest
        lockPath = BuildLock.path(forManifest: manifest.file)
        ManifestBuild.protectInputs(whole)
        outputs = try OutputSet.manifest(manifest, overrides: options.overrides)
        try BuildEngine.checkOutputs(outputs.plan, allowOutside: options.allowOutside, lockPath: lockPath)
    }

    /// Protects the files a build of `manifest` reads from its writes: the manifest, the lock
    /// (written only as the lock) and every job's preset with the files it reads.
    public static func protectInputs(_ manifest: BuildManifest) {
        ProtectedFiles.protect([manifest.file], as: "the manifest")
        ProtectedFiles.protect([BuildLock.path(forManifest: manifest.file)], as: "the lock file")
        for job in manifest.jobs { ProtectedFiles.protectInputs(of: job.preset, overrides: job.overrides) }
    }

    /// Builds every output (and asset catalog file), records the lock and handles orphans.
    public func run(progress: (any OutputProgress)? = nil, events: @escaping (Event) -> Void = { _ in }) throws(WaveError) -> Outcome {
        let check = options.check
        if options.strict {
            // Every preset checked as validate --strict would, before anything is written.
            _ = try Validation.checkConfigs(plan, strict: true)
        } else {
            for w in plan.warnings { events(.warning(w)) }
        }
        for n in plan.notes { events(.planNote(n)) }
        let lock = readLock(events)
        let context = BuildEngine.Context(plan: plan, check: check, threads: options.workers == 1 ? 0 : 1, lock: lock, fonts: FontDigests())
        let recorder = LockRecorder(path: lockPath, manifest: manifest.file, enabled: !check, generator: options.generator)
        var lockFailure: WaveError?
        let plan = self.plan
        let done = outputs.make(workers: options.workers, progress: progress, printError: { events(.error($0.hasSuffix("\n") ? String($0.dropLast()) : $0)) },
                                problems: { (r: BuildEngine.Result) in r.error },
                                work: { BuildEngine.build($0, context) }, deliver: { output, result in
            for w in result.rendered?.warnings ?? [] { events(.warning("\(output.job.label): \(output.path): \(w)")) }
            events(.output(output, result))
            // Recorded as outputs finish, so an interrupted build keeps what it did.
            recorder.record(BuildEngine.lockKey(output, plan: plan), BuildEngine.change(result))
            if lockFailure == nil {
                do throws(WaveError) { try recorder.flushIfDue() } catch { lockFailure = error }
            }
        })

        // The asset catalogs' Contents.json files: computed, so written after the outputs.
        var fileResults: [BuildEngine.Result] = []
        for file in plan.files {
            let r = BuildEngine.build(file, context)
            for problem in r.error?.problems ?? [] { events(.error("Error: \(file.job.label): \(file.path): \(problem)")) }
            events(.file(file, r))
            recorder.record(BuildEngine.lockKey(path: file.path, plan: plan), BuildEngine.change(r))
            fileResults.append(r)
        }

        let (orphans, pruned) = handleOrphans(lock: lock, recorder: recorder, events: events)
        var counts = BuildEngine.Counts(done + fileResults)
        counts.orphaned = check ? orphans.count : 0
        counts.pruned = pruned.count
        let failure = BuildEngine.failure(done + fileResults, check: check, orphans: counts.orphaned)
        if lockFailure == nil {
            do throws(WaveError) { try recorder.flush() } catch { lockFailure = error }
        }
        return Outcome(outputs: done, files: fileResults, orphans: orphans, pruned: pruned, counts: counts, failure: failure, lockFailure: lockFailure)
    }

    /// The lock as read at the start: nil when there is none or it is unusable (said in a note).
    private func readLock(_ events: (Event) -> Void) -> BuildLock? {
        switch BuildLock.read(lockPath) {
        case let .lock(l): return l
        case .missing:
            if options.check, plan.outputs.contains(where: { FileSystem.exists($0.path) }) {
                events(.lockNote("\(lockPath): no lock yet; checking by rendering every output in memory"))
            }
        case let .unusable(reason):
            events(.lockNote("\(lockPath): \(reason); \(options.check ? "checking by rendering every output in memory" : "rendering every output and writing a new lock")"))
        }
        return nil
    }

    /// Orphans come from the lock alone: files wavegen wrote for this manifest that no job of the
    /// whole manifest plans now. Checking reports them; pruning deletes them. Returns the orphans'
    /// paths and those deleted.
    private func handleOrphans(lock: BuildLock?, recorder: LockRecorder, events: (Event) -> Void) -> ([String], [String]) {
        let root = OnDisk.realPath(plan.origin.directory.isEmpty ? "." : plan.origin.directory)
        let planned = Set(BuildPlan.plannedPaths(wholeManifest, overrides: options.overrides).map { BuildEngine.lockKey(path: $0, plan: plan) })
        let orphans = Orphans.find(lock: lock, planned: planned, selected: selected, jobs: Set(wholeManifest.jobs.map(\.name)), manifest: manifest,
                                   owner: BuildEngine.owner(plan) ?? BuildManifest.defaultFileName)
        for key in Orphans.vanished(lock: lock, planned: planned, manifest: manifest) { recorder.record(key, .remove) }
        var pruned: [String] = []
        for orphan in orphans {
            let path = orphan.path
            if options.check {
                events(.error("Error: \(path): orphaned: wavegen wrote it for this manifest but no job plans it now (wavegen build --prune deletes it)"))
                events(.orphaned(path))
            } else if options.prune {
                if let reason = Orphans.keepReason(orphan, root: root, allowOutside: options.allowOutside) {
                    // wavegen no longer answers for this file: the lock forgets it.
                    events(.warning("\(path): orphan not deleted: \(reason)"))
                    recorder.record(orphan.key, .remove)
                } else {
                    do {
                        try FileSystem.remove(path)
                    } catch {
                        events(.error("Error: \(path): cannot delete this orphan: \(error.reason)"))
                        continue
                    }
                    pruned.append(path)
                    BuildEngine.removeEmptyCatalogFolders(above: path)
                    recorder.record(orphan.key, .remove)
                    events(.pruned(path))
                }
            }
        }
        if !options.check, !options.prune, !orphans.isEmpty {
            events(.warning("\(orphans.count) \(orphans.count == 1 ? "file" : "files") wavegen wrote for this manifest \(orphans.count == 1 ? "is" : "are") no longer planned (first: \(orphans[0].path)); 'wavegen build --prune' deletes them"))
        }
        return (orphans.map(\.path), pruned)
    }
}
