import WaveBuild
import WaveKit
import WavePlatform
import WaveRender

/// What the preview server shows: each input named on the command line (a manifest, or a preset
/// in every format a browser shows) planned and rendered in memory, and planned again when a file
/// it read changes on disk. An output whose input digest (`OutputDigest.input`: the merged preset,
/// rider pixels, font bytes, format) did not change is not rendered again, whichever source made
/// it. Each source has a thread of its own (`start`); connection threads read the rendered files
/// through `file(named:)`.
public final class LiveSession: @unchecked Sendable {
    /// One output on the page.
    public struct Output {
        public var id: String
        public var output: BuildPlan.Output
        public var rendered: RenderedOutput?
        /// Whether `rendered` is a draft (`PreviewRender`: a slow loop's WebP or APNG encoded
        /// fast) shown until the final file comes; its size says nothing of the final's.
        public var draft = false
        /// Whether its render is under way and nothing was shown of it before (the page says so).
        public var pending = false
        /// The opaque name the file is served under (`/o/NAME`).
        public var name: String?
        public var digest: String?
        public var errors: [String] = []
        /// For a live SVG, the preset's own level (0…1): where the page's level slider starts.
        public var liveLevel: Double?
        /// Whether the preset has a dark twin that this output does not already show.
        public var hasDarkTwin = false
        /// The `--theme dark` render of a raster or Lottie output with a dark twin (an SVG
        /// carries both themes), its loaded preset, served name and input digest.
        public var darkLoaded: BuildPlan.Loaded?
        public var dark: RenderedOutput?
        public var darkName: String?
        public var darkDigest: String?
    }

    /// A section of the page: one preset, or one job of a manifest.
    public struct Group {
        public var id: String
        public var title: String
        public var subtitle: String
        public var errors: [String] = []
        public var warnings: [String] = []
        public var outputs: [Output] = []
        /// The job's preset as `wavegen presets pack` writes it, and its served name; or why not.
        public var pack: PreviewThemes.PackedPreset?
        public var packName: String?
        public var packError: String?
        /// Whether some of its outputs are still rendering (a state shown while they are).
        public var rendering = false
    }

    /// An input named on the command line and what it showed last.
    public final class Source: @unchecked Sendable {
        public let input: String
        public let index: Int
        public var isManifest = false
        /// The stamps of the files it read, and whether it has been rendered once: its thread's own.
        public var snapshot = FileSnapshot()
        public var rendered = false
        /// What the page shows of it, and the files it read (under the session's lock).
        public var groups: [Group]
        public var files: [String] = []

        public init(input: String, index: Int) {
            self.input = input
            self.index = index
            groups = [Group(id: "\(index)", title: input, subtitle: "rendering…")]
        }
    }

    /// A rendered file as served.
    public struct ServedFile {
        public var bytes: [UInt8]
        public var mimeType: String
        /// The last generation that showed it.
        public var generation: Int
    }

    public let sources: [Source]
    public let overrides: [PresetOverride]
    public let workers: Int
    public let console: LiveLog
    /// The version the page shows (`0.1.0 (abc1234)`).
    public let version: String
    public let quiet: Bool
    /// The formats each preset is shown in: every format a browser shows as an image.
    public let formats = OutputFormat.allCases.filter(\.showsInBrowser)

    /// Guards the sources' groups, the served files, the render and pack caches and the generation.
    private let lock = Lock()
    private var stopped = false
    private var files: [String: ServedFile] = [:]
    /// Renders by input digest, shared by the sources.
    private var renders: [String: (output: RenderedOutput, name: String)] = [:]
    /// Packed presets by reference, with the files each read and their stamps then.
    private var packs: [String: (paths: [String], stamps: [FileStamp], pack: Result<PreviewThemes.PackedPreset, WaveError>)] = [:]
    /// How many times the page's state has changed (0: nothing rendered yet; each source rendered adds one).
    private(set) var generation = 0

    public init(inputs: [String], overrides: [PresetOverride], workers: Int, console: LiveLog, quiet: Bool, version: String) {
        sources = inputs.enumerated().map { Source(input: $1, index: $0) }
        self.overrides = overrides
        self.workers = workers
        self.console = console
        self.version = version
        self.quiet = quiet
    }

    /// Seconds between two checks of a source's files: a few `stat` calls, so checking often
    /// costs nothing measurable, and a save waits half of it on average before it is seen.
    public static let pollInterval = 0.01

    /// Starts one thread per source: it renders the source, then checks the files it read every
    /// `pollInterval` and renders it again when one changed (once the save is done:
    /// `FileSnapshot.waitUntilQuiet`), so a slow preset does not hold up the others.
    /// After each render `published` gets the page's new state (`state(changed:)`), in order.
    public func start(published: @escaping @Sendable (String) -> Void) {
        for source in sources {
            ProcessEnvironment.detachThread { [self] in
                while !lock.withLock({ stopped }) {
                    refresh(source, published: published)
                    Clock.sleep(seconds: Self.pollInterval)
                }
            }
        }
    }

    /// Stops watching (a render under way finishes, unseen).
    public func stop() { lock.withLock { stopped = true } }

    /// Renders `source` if it has not been yet or a file it read changed, and prints what happened.
    private func refresh(_ source: Source, published: @escaping (String) -> Void) {
        let paths = source.snapshot.changedPaths()
        guard !source.rendered || !paths.isEmpty else { return }
        // Most saves are whole by the time a check sees them, so files that exist and are not
        // empty are read at once. An empty or missing file, or a read that found problems (a save
        // still under way reads as broken), waits for the files to hold still, and what changed
        // meanwhile is read again.
        let whole = !source.rendered || FileSnapshot.written(paths)
        if !whole { FileSnapshot.waitUntilQuiet(paths) }
        let start = Clock.monotonicNanoseconds
        var (groups, fresh) = rebuild(source, published: published)
        if source.rendered, whole, groups.contains(where: { !$0.errors.isEmpty || $0.outputs.contains { !$0.errors.isEmpty } }) {
            FileSnapshot.waitUntilQuiet(paths)
            if !source.snapshot.changedPaths().isEmpty { (groups, fresh) = rebuild(source, published: published) }
        }
        let ms = Double(Clock.monotonicNanoseconds - start) / 1e6
        report(source, groups: groups, rendered: fresh, changedPaths: source.rendered ? paths : [], milliseconds: ms)
        source.rendered = true
        publish(groups, of: source, published: published)
        // The dark themes not rendered before come second, so that they do not delay the light
        // ones a change shows first.
        let before = Set(groups.flatMap(\.outputs).flatMap(\.errors))
        guard renderDark(&groups, source: source) > 0 else { return }
        // A dark theme that failed (a size budget it alone misses) is said as the light ones are.
        let failed = groups.flatMap(\.outputs).flatMap(\.errors).filter { !before.contains($0) }
        if !failed.isEmpty { console.err(failed.map { $0.dropFirst(Self.darkPrefix.count) + "\n" }.joined()) }
        publish(groups, of: source, published: published)
    }

    /// What starts the page's line of an error of an output's dark theme.
    static let darkPrefix = "dark theme: "

    /// Shows `groups` for `source` and sends the page its new state.
    private func publish(_ groups: [Group], of source: Source, published: (String) -> Void) {
        lock.withLock {
            guard !stopped else { return }
            let changed = Array(Set(source.groups.map(\.id) + groups.map(\.id))).sorted()
            source.groups = groups
            source.files = source.snapshot.paths
            generation += 1
            publishFiles()
            published(stateJSON(changed: changed))
        }
    }

    /// The file served as `/o/NAME`.
    public func file(named name: String) -> ServedFile? { lock.withLock { files[name] } }

    // MARK: Planning and rendering

    /// The source's groups now, and how many outputs had to be rendered. Each file is shown as it
    /// is done (`published` gets the page's state then), the others as they were until theirs is.
    private func rebuild(_ source: Source, published: @escaping (String) -> Void) -> ([Group], Int) {
        let loader = PresetLoader.standard
        let path = BuildManifest.locate(source.input)
        // A manifest that breaks stays a manifest, so its own errors are reported.
        source.isManifest = BuildManifest.looksLikeManifest(path) || (source.isManifest && FileStamp(path: path).exists)
        let set: OutputSet
        do throws(WaveError) {
            if source.isManifest {
                source.snapshot = FileSnapshot([path])
                let manifest = try BuildManifest.load(path)
                source.snapshot.add(manifest.jobs.flatMap { loader.inputFiles($0.preset, overrides: $0.overrides + overrides) })
                set = try OutputSet.manifest(manifest, overrides: overrides)
            } else {
                source.snapshot = FileSnapshot(loader.inputFiles(source.input, overrides: overrides))
                set = try OutputSet.presets([source.input], formats: formats, overrides: overrides)
            }
        } catch {
            return ([Group(id: "\(source.index)", title: source.input, subtitle: source.isManifest ? "manifest" : "preset",
                           errors: error.printedLines)], 0)
        }
        var groups = groups(of: set.plan, source: source)
        let fresh = render(&groups, set: set, source: source, twins: PreviewThemes.darkTwins(of: set.plan, overrides: overrides),
                           published: published)
        return (groups, fresh)
    }

    /// The plan's outputs in groups, one per job; nothing rendered yet.
    private func groups(of plan: BuildPlan, source: Source) -> [Group] {
        var groups: [Group] = []
        var groupOfJob: [Int: Int] = [:]
        for o in plan.outputs {
            let g = groupOfJob[o.job.index] ?? {
                let id = "\(source.index)-\(o.job.index)"
                let title = source.isManifest ? o.job.label : source.input
                let subtitle = source.isManifest ? "\(plan.origin.file) · preset \(o.job.presetText)" : "preset"
                groups.append(Group(id: id, title: title, subtitle: subtitle,
                                    warnings: plan.warnings.filter { $0.hasPrefix(o.job.label + ": ") }))
                groupOfJob[o.job.index] = groups.count - 1
                return groups.count - 1
            }()
            groups[g].outputs.append(Output(id: "\(groups[g].id)/\(o.path)", output: o))
        }
        if groups.isEmpty {
            groups.append(Group(id: "\(source.index)", title: source.input, subtitle: "manifest", warnings: plan.warnings))
        }
        for g in groups.indices {
            guard let job = groups[g].outputs.first?.output.job else { continue }
            let pack = packed(job.preset)
            switch pack {
            case let .success(p):
                groups[g].pack = p
                groups[g].packName = String(SHA256.hex(p.bytes).prefix(32)) + ".wavegen.json"
            case let .failure(error):
                groups[g].packError = error.lines.joined(separator: " ")
            }
        }
        return groups
    }

    /// `reference` packed (`PreviewThemes.pack`), packed again only when a file it reads changed
    /// since it was last packed: a manifest's change does not pack every job's preset again.
    private func packed(_ reference: String) -> Result<PreviewThemes.PackedPreset, WaveError> {
        let paths = PresetLoader.standard.inputFiles(reference)
        let stamps = paths.map(FileStamp.init(path:))
        if let hit = lock.withLock({ packs[reference] }), hit.paths == paths, hit.stamps == stamps { return hit.pack }
        let pack = PreviewThemes.pack(reference, generator: "wavegen \(version)")
        lock.withLock { packs[reference] = (paths, stamps, pack) }
        return pack
    }

    /// One render to look up or make: output `o` of group `g`, its light or its dark theme.
    private struct RenderTask {
        var g: Int
        var o: Int
        var loaded: BuildPlan.Loaded
        var dark: Bool
    }

    /// Fills in every output: from the cache when its input digest is known, else rendered; a
    /// dark theme only from the cache (`renderDark` renders the others). Returns how many were
    /// rendered.
    private func render(_ groups: inout [Group], set: OutputSet, source: Source, twins: [BuildPlan.Loaded?],
                        published: @escaping (String) -> Void) -> Int {
        var tasks: [RenderTask] = []
        for g in groups.indices {
            for k in groups[g].outputs.indices {
                let o = groups[g].outputs[k].output
                switch set.plan.configs[o.config].result {
                case let .failure(error):
                    // The preset's problems, said once for the group rather than on each output.
                    for line in error.printedLines where !groups[g].errors.contains(line) { groups[g].errors.append(line) }
                case let .success(loaded):
                    for font in loaded.config.label?.fonts ?? [] { if case let .file(path) = font.source { source.snapshot.add([path]) } }
                    if o.job.live, case let .still(level) = loaded.config.level { groups[g].outputs[k].liveLevel = level }
                    groups[g].outputs[k].hasDarkTwin = twins[o.index] != nil
                    if o.format != .svg { groups[g].outputs[k].darkLoaded = twins[o.index] }
                    tasks.append(RenderTask(g: g, o: k, loaded: loaded, dark: false))
                }
            }
        }
        // A change shows each file as it comes; the first render shows them together.
        let fresh = fill(&groups, tasks, cachedOnly: false, partial: source.rendered ? (source, published) : nil)
        _ = fill(&groups, darkTasks(groups), cachedOnly: true)
        return fresh
    }

    /// Renders the dark themes `render` did not find in the cache; returns how many.
    private func renderDark(_ groups: inout [Group], source: Source) -> Int {
        fill(&groups, darkTasks(groups), cachedOnly: false)
    }

    /// The dark themes still to fill in: of outputs whose light theme rendered.
    private func darkTasks(_ groups: [Group]) -> [RenderTask] {
        groups.indices.flatMap { g in
            groups[g].outputs.indices.compactMap { k -> RenderTask? in
                let o = groups[g].outputs[k]
                guard let loaded = o.darkLoaded, o.rendered != nil, o.dark == nil, o.errors.isEmpty else { return nil }
                return RenderTask(g: g, o: k, loaded: loaded, dark: true)
            }
        }
    }

    /// Fills in each task's render from the cache by its input digest, or (unless `cachedOnly`)
    /// renders it. Returns how many were rendered. The formats of one preset are rendered together
    /// (`PreviewRender`: frames drawn once, each file handed over when done); with `partial`, each
    /// file (a slow loop's drafts first) is shown as it comes, beside what the page showed before.
    private func fill(_ groups: inout [Group], _ tasks: [RenderTask], cachedOnly: Bool,
                      partial: (source: Source, published: (String) -> Void)? = nil) -> Int {
        let fonts = FontDigests()
        func store(_ t: RenderTask, _ r: RenderedOutput, name: String, digest: String?, in groups: inout [Group]) {
            if t.dark {
                (groups[t.g].outputs[t.o].dark, groups[t.g].outputs[t.o].darkName, groups[t.g].outputs[t.o].darkDigest) = (r, name, digest)
            } else {
                (groups[t.g].outputs[t.o].rendered, groups[t.g].outputs[t.o].name, groups[t.g].outputs[t.o].digest) = (r, name, digest)
            }
        }
        func fail(_ t: RenderTask, _ lines: [String], in groups: inout [Group]) {
            groups[t.g].outputs[t.o].errors += t.dark ? lines.map { Self.darkPrefix + $0 } : lines
        }
        var pending: [(task: RenderTask, digest: String)] = []
        for t in tasks {
            let o = groups[t.g].outputs[t.o].output
            do throws(WaveError) {
                let digest = try OutputDigest.input(t.loaded, format: o.format, live: o.job.live, fitTo: o.fitLimit, fonts: fonts)
                if let hit = lock.withLock({ renders[digest] }) {
                    store(t, hit.output, name: hit.name, digest: digest, in: &groups)
                } else if !cachedOnly {
                    pending.append((t, digest))
                }
            } catch {
                fail(t, error.printedLines, in: &groups)
            }
        }
        guard !pending.isEmpty else { return 0 }
        // Shown as each file comes, the outputs that did not change keep their dark themes from the
        // cache meanwhile: the page then leaves their cards as they were.
        if partial != nil { _ = fill(&groups, darkTasks(groups), cachedOnly: true) }
        // Units of work: the outputs of one loaded preset (same config, theme and live flag, no
        // size fit) together; a fitted output alone.
        var units: [[Int]] = []
        for (i, p) in pending.enumerated() {
            let o = groups[p.task.g].outputs[p.task.o].output
            if o.fitLimit == nil, let u = units.firstIndex(where: { u in
                let q = pending[u[0]].task, other = groups[q.g].outputs[q.o].output
                return other.fitLimit == nil && q.dark == p.task.dark && other.job.live == o.job.live && q.loaded.config == p.task.loaded.config
                    && !u.contains { groups[pending[$0].task.g].outputs[pending[$0].task.o].output.format == o.format }
            }) {
                units[u].append(i)
            } else {
                units.append([i])
            }
        }
        let shared = Shared(groups)
        for p in pending where !p.task.dark { shared.groups[p.task.g].outputs[p.task.o].pending = true }
        let outputs = groups.map(\.outputs)
        let threads = workers == 1 ? 0 : 1
        // One delivery: stored (a draft only while its final has not come), and with `partial`, shown.
        let deliver = { (i: Int, draft: Bool, result: Result<RenderedOutput, WaveError>) in
            let p = pending[i]
            let format = outputs[p.task.g][p.task.o].output.format
            self.lock.withLock {
                let out = shared.groups[p.task.g].outputs[p.task.o]
                if draft && (out.rendered != nil || !out.errors.isEmpty) { return }
                shared.groups[p.task.g].outputs[p.task.o].pending = false
                shared.groups[p.task.g].outputs[p.task.o].draft = draft
                switch result {
                case let .success(r):
                    let name = String(SHA256.hex(r.bytes).prefix(32)) + "." + format.rawValue
                    store(p.task, r, name: name, digest: draft ? nil : p.digest, in: &shared.groups)
                    if !draft { self.renders[p.digest] = (r, name) }
                case let .failure(error):
                    if out.draft { (shared.groups[p.task.g].outputs[p.task.o].rendered, shared.groups[p.task.g].outputs[p.task.o].name) = (nil, nil) }
                    fail(p.task, error.printedLines, in: &shared.groups)
                }
                // The last file waits for the state the session publishes once every output is done.
                if let partial, !p.task.dark, shared.groups.contains(where: { $0.outputs.contains { $0.pending || $0.draft } }) {
                    self.publishPartial(shared.groups, of: partial.source, published: partial.published)
                }
            }
        }
        _ = OrderedWork.run(count: units.count, workers: units.count == 1 ? 1 : workers, work: { u -> Int in
            let members = units[u]
            let first = pending[members[0]]
            let o = outputs[first.task.g][first.task.o].output
            if members.count == 1, o.fitLimit != nil {
                deliver(members[0], false, Result { () throws(WaveError) in
                    try RenderedOutput.render(first.task.loaded, format: o.format, live: o.job.live, fitTo: o.fitLimit, threads: threads)
                })
                return 0
            }
            let formats = members.map { outputs[pending[$0].task.g][pending[$0].task.o].output.format }
            PreviewRender.render(first.task.loaded, formats: formats, live: o.job.live, drafts: partial != nil && !first.task.dark) { d in
                deliver(members[d.index], d.draft, d.result)
            }
            return 0
        }, started: { _, _ in }, deliver: { _, _ in })
        groups = shared.groups
        return pending.count
    }

    /// The groups being filled in, shared by the threads that render them (under the session's lock).
    private final class Shared: @unchecked Sendable {
        var groups: [Group]
        init(_ groups: [Group]) { self.groups = groups }
    }

    /// Shows `groups` while some of their outputs are still rendering: each of those as the page
    /// showed it before (or, new, as under way). Called with the lock held.
    private func publishPartial(_ groups: [Group], of source: Source, published: (String) -> Void) {
        guard !stopped else { return }
        let before = Dictionary(source.groups.flatMap(\.outputs).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var shown = groups
        for g in shown.indices {
            shown[g].rendering = shown[g].outputs.contains { $0.pending || $0.draft }
            for k in shown[g].outputs.indices where shown[g].outputs[k].pending {
                if let old = before[shown[g].outputs[k].id], old.rendered != nil { shown[g].outputs[k] = old }
            }
        }
        let changed = Array(Set(source.groups.map(\.id) + shown.map(\.id))).sorted()
        source.groups = shown
        generation += 1
        publishFiles()
        published(stateJSON(changed: changed))
    }

    /// Serves the files the page shows now and those it showed one generation ago (a page that
    /// is just loading them); forgets older ones, and the renders no source shows any more.
    /// Called with the lock held.
    private func publishFiles() {
        let shown = sources.flatMap(\.groups).flatMap(\.outputs)
        for o in shown {
            if let name = o.name, let r = o.rendered {
                files[name] = ServedFile(bytes: r.bytes, mimeType: o.output.format.mimeType, generation: generation)
            }
            if let name = o.darkName, let r = o.dark {
                files[name] = ServedFile(bytes: r.bytes, mimeType: o.output.format.mimeType, generation: generation)
            }
        }
        for g in sources.flatMap(\.groups) {
            if let name = g.packName, let p = g.pack { files[name] = ServedFile(bytes: p.bytes, mimeType: "application/json", generation: generation) }
        }
        files = files.filter { $0.value.generation >= generation - 1 }
        let digests = Set(shown.compactMap(\.digest) + shown.compactMap(\.darkDigest))
        renders = renders.filter { digests.contains($0.key) }
        // Packs of presets no group shows any more (renamed, or gone from a manifest) are let go.
        let presets = Set(sources.flatMap(\.groups).compactMap { $0.outputs.first?.output.job.preset })
        packs = packs.filter { presets.contains($0.key) }
    }

    // MARK: Reporting

    /// Prints a source's errors (on stderr, as every command prints them) and warnings, and a
    /// line saying what was rendered.
    private func report(_ source: Source, groups: [Group], rendered fresh: Int, changedPaths: [String], milliseconds: Double) {
        // Each stream written at once, so the lines of sources rendered together do not mix.
        var printed = Set<String>()
        var err = ""
        for g in groups {
            for line in g.errors + g.outputs.flatMap(\.errors) where printed.insert(line).inserted { err += line + "\n" }
            for w in g.warnings where printed.insert(w).inserted { err += "warning: \(w)\n" }
        }
        if !err.isEmpty { console.err(err) }
        let outputs = groups.flatMap(\.outputs)
        let failed = outputs.filter { $0.rendered == nil }.count
        guard !quiet else { return }
        var line = source.input
        if !changedPaths.isEmpty { line += " (\(changedPaths.joined(separator: ", ")) changed)" }
        if outputs.isEmpty, groups.contains(where: { !$0.errors.isEmpty }) {
            line += ": not rendered (see the errors)"
        } else {
            let noun = outputs.count == 1 ? "output" : "outputs"
            line += ": \(outputs.count) \(noun), \(fresh) rendered in \(NumberText.decimal(milliseconds.rounded(), places: 0)) ms"
            if failed > 0 { line += ", \(failed) failed" }
        }
        console.out(line + "\n")
    }

    // MARK: The page's state

    /// The state the page shows, as one line of JSON; `changed` lists the ids of the groups that
    /// changed since the last state.
    public func state(changed: [String] = []) -> String { lock.withLock { stateJSON(changed: changed) } }

    /// `state(changed:)` with the lock held.
    private func stateJSON(changed: [String]) -> String {
        let groups = sources.flatMap { s in s.groups.map { (s.files, $0) } }.map { files, g -> JSONNode in
            .object([
                ("id", .string(g.id)),
                ("title", .string(g.title)),
                ("subtitle", .string(g.subtitle)),
                ("errors", .array(g.errors.map { .string($0) })),
                ("warnings", .array(g.warnings.map { .string($0) })),
                ("files", .array(files.map { .string($0) })),
                ("outputs", .array(g.outputs.map { json($0, group: g) })),
            ] + (g.rendering ? [("rendering", .bool(true))] : []))
        }
        return JSONNode.object([
            ("generation", .int(generation)),
            ("version", .string(version)),
            ("changed", .array(changed.map { .string($0) })),
            ("groups", .array(groups)),
        ]).serialized(indent: nil)
    }

    private func json(_ o: Output, group: Group) -> JSONNode {
        var members: [(String, JSONNode)] = [
            ("id", .string(o.id)),
            ("path", .string(o.output.path)),
            ("format", .string(o.output.format.rawValue)),
            ("mimeType", .string(o.output.format.mimeType)),
            ("errors", .array(o.errors.map { .string($0) })),
        ]
        if let r = o.rendered, let name = o.name {
            members += [
                ("url", .string("/o/" + name)),
                ("width", .int(r.width)),
                ("height", .int(r.height)),
                ("shownWidth", .int(r.shownWidth)),
                ("shownHeight", .int(r.shownHeight)),
                ("frames", .int(r.frames)),
                ("duration", .number(r.duration)),
            ]
            // A draft's size says nothing of the final file's: the page says it is being measured.
            if o.draft { members.append(("draft", .bool(true))) } else { members.append(("bytes", .int(r.bytes.count))) }
            members.append(("facts", .array((PreviewPage.facts(o.output, r, draft: o.draft) + (o.dark.map { [PreviewPage.darkFact($0)] } ?? [])).map { f in
                .object([("label", .string(f.label)), ("text", .string(f.text)), ("alert", .string(f.alert))])
            })))
            if let level = o.liveLevel { members.append(("live", .number(level))) }
            if o.hasDarkTwin { members.append(("darkTwin", .bool(true))) }
            if let dark = o.dark, let name = o.darkName {
                members.append(("dark", .object([("url", .string("/o/" + name)), ("bytes", .int(dark.bytes.count))])))
            }
        } else if o.pending {
            members.append(("pending", .bool(true)))
        }
        if let p = group.pack, let name = group.packName {
            members.append(("pack", .object([("url", .string("/o/" + name)), ("fileName", .string(p.fileName)), ("bytes", .int(p.bytes.count))])))
        } else if let error = group.packError {
            members.append(("packError", .string(error)))
        }
        return .object(members)
    }
}

extension OutputFormat {
    /// Whether a browser shows the format's files as an image (`<img>`, ImageDecoder, inline SVG).
    public var showsInBrowser: Bool { mimeType.hasPrefix("image/") }
}

/// Where the live session prints: what it rendered on `out`, errors and warnings on `err`.
public struct LiveLog: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
        self.out = out
        self.err = err
    }
}
