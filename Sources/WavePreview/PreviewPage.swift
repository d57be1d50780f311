import WavePlatform
import WaveKit
import WaveRender
import WaveBuild

extension PreviewPage {
    /// One image on the page.
    public struct Item {
        public var group: Int
        public var output: BuildPlan.Output
        public var plan: Int

        public init(group: Int, output: BuildPlan.Output, plan: Int) {
            self.group = group
            self.output = output
            self.plan = plan
        }
    }

    /// A section of the page: one manifest job, or one preset.
    public struct Group {
        public var title: String
        public var subtitle: String
        /// The preset reference the job loads (what `presets pack` is given for its cards' link).
        public var preset: String = ""
        /// The preset packed (`PresetPack`), or why it could not be.
        public var pack: Result<PreviewThemes.PackedPreset, WaveError>? = nil

        public init(title: String, subtitle: String) {
            self.title = title
            self.subtitle = subtitle
        }
    }
}

extension PreviewPage {
    /// Plans every input (a manifest, or presets shown as GIF, WebP and APNG), renders every output
    /// in memory on `workers` threads and returns the page. Errors are handed to `printError` as
    /// outputs finish, each document problem once; `progress` follows the outputs.
    public static func make(inputs: [String], overrides cli: [PresetOverride], workers: Int, generator: String, progress: some OutputProgress,
                            printError: @escaping (String) -> Void) throws(WaveError) -> (html: String, items: [Item], entries: [PreviewEntry]) {
        var sets: [OutputSet] = []
        var groups: [Group] = []
        var items: [Item] = []
        var presets: [String] = []
        func add(_ set: OutputSet, title: (BuildManifest.Job) -> Group) {
            let p = sets.count
            sets.append(set)
            var groupOfJob: [Int: Int] = [:]
            for o in set.outputs {
                let g = groupOfJob[o.job.index] ?? {
                    var group = title(o.job)
                    group.preset = o.job.preset
                    groups.append(group)
                    groupOfJob[o.job.index] = groups.count - 1
                    return groups.count - 1
                }()
                items.append(Item(group: g, output: o, plan: p))
            }
        }
        func flushPresets() throws(WaveError) {
            guard !presets.isEmpty else { return }
            add(try OutputSet.presets(presets, formats: [.gif, .webp, .apng], overrides: cli)) { job in Group(title: job.presetText, subtitle: "preset") }
            presets.removeAll()
        }
        for input in inputs {
            let path = BuildManifest.locate(input)
            if BuildManifest.looksLikeManifest(path) {
                try flushPresets()
                let manifest = try BuildManifest.load(path)
                add(try OutputSet.manifest(manifest, overrides: cli)) { job in
                    Group(title: "\(job.label)", subtitle: "\(manifest.file) · preset \(job.presetText)")
                }
            } else {
                presets.append(input)
            }
        }
        try flushPresets()
        for set in sets { for w in set.plan.warnings { printError("warning: \(w)\n") } }

        // The dark theme of each output whose preset has a dark twin, rendered after the light ones
        // (an SVG carries both themes: it is shown twice instead).
        let twins = sets.map { PreviewThemes.darkTwins(of: $0.plan, overrides: cli) }
        let darkItems = items.indices.filter { items[$0].output.format != .svg && twins[items[$0].plan][items[$0].output.index] != nil }
        let work = items.map(\.output) + darkItems.map { items[$0].output }
        let threads = workers == 1 ? 0 : 1
        let rendered = OutputSet.make(work, workers: workers, progress: progress, printError: printError,
                                      problems: { (entry: PreviewEntry) in entry.error }, work: { i -> PreviewEntry in
            guard i < items.count else {
                let item = items[darkItems[i - items.count]]
                return PreviewEntry.render(twins[item.plan][item.output.index]!, item.output, threads: threads)
            }
            let item = items[i]
            var entry: PreviewEntry
            switch sets[item.plan].render(item.output, threads: threads) {
            case let .success(r): entry = PreviewEntry(rendered: r)
            case let .failure(error): return PreviewEntry(rendered: nil, error: error)
            }
            if item.output.job.live, case let .success(loaded) = sets[item.plan].plan.configs[item.output.config].result,
               case let .still(level) = loaded.config.level { entry.liveLevel = level }
            entry.hasDarkTwin = twins[item.plan][item.output.index] != nil
            return entry
        })
        var entries = Array(rendered.prefix(items.count))
        for (k, i) in darkItems.enumerated() {
            let dark = rendered[items.count + k]
            entries[i].dark = dark.rendered
            entries[i].darkError = dark.error
        }
        var packs: [String: Result<PreviewThemes.PackedPreset, WaveError>] = [:]
        for g in groups.indices where !groups[g].preset.isEmpty {
            if packs[groups[g].preset] == nil { packs[groups[g].preset] = PreviewThemes.pack(groups[g].preset, generator: generator) }
            groups[g].pack = packs[groups[g].preset]
        }
        let html = PreviewPage.html(groups: groups, items: items, entries: entries)
        return (html, items, entries)
    }
}

extension RenderedOutput {
    /// The size an image made at a scale (@2x, @3x) is shown at: its size at scale 1, as an app shows it.
    var shownWidth: Int { max(1, Int((Double(width) / scale).rounded())) }
    var shownHeight: Int { max(1, Int((Double(height) / scale).rounded())) }
}

/// What previewing one output produced.
public struct PreviewEntry: Sendable {
    public var rendered: RenderedOutput?
    /// Why the output failed, nil when it rendered.
    public var error: WaveError?
    /// Why its `--theme dark` render failed, nil when it rendered or there is none.
    public var darkError: WaveError? = nil
    /// The output's `--theme dark` render (raster and Lottie outputs of a preset with a dark twin).
    public var dark: RenderedOutput? = nil
    /// Whether the output's preset has a dark twin (an SVG shows it from its own file).
    public var hasDarkTwin = false
    /// For a live SVG, the preset's own level (0…1), where the page's level slider starts.
    public var liveLevel: Double? = nil

    public init(rendered: RenderedOutput?, error: WaveError? = nil) {
        self.rendered = rendered
        self.error = error
    }

    /// What failed first: the output, else its dark theme.
    public var failure: WaveError? { error ?? darkError }

    /// The problems the page shows: the output's, then its dark theme's.
    public var errors: [String] { (error?.lines ?? []) + (darkError?.lines ?? []).map { "dark theme: " + $0 } }

    /// Renders `output` of `loaded`; a failure becomes the entry's errors.
    static func render(_ loaded: BuildPlan.Loaded, _ output: BuildPlan.Output, threads: Int) -> PreviewEntry {
        do throws(WaveError) {
            let r = try RenderedOutput.render(loaded, format: output.format, live: output.job.live, fitTo: output.fitLimit, threads: threads)
            return PreviewEntry(rendered: r)
        } catch {
            return PreviewEntry(rendered: nil, error: error)
        }
    }
}

/// What both preview pages add for themes and sharing: each output's dark twin, and each preset
/// packed as `wavegen presets pack` writes it.
public enum PreviewThemes {
    /// A preset as `wavegen presets pack` writes it, and the name the page offers to save it as.
    public struct PackedPreset: Sendable, Equatable {
        public var fileName: String
        public var bytes: [UInt8]
    }

    /// For each output of `plan` (by its index), the loaded preset of its `--theme dark` render:
    /// the same job with `--theme dark` after `overrides`. Nil for an output whose preset has no
    /// dark twin, or that is already rendered in its dark theme (a job or the command line chose it).
    static func darkTwins(of plan: BuildPlan, overrides: [PresetOverride]) -> [BuildPlan.Loaded?] {
        func light(_ c: BuildPlan.Config) -> WaveConfig? {
            guard case let .success(loaded) = c.result, let dark = loaded.config.themeColors["dark"],
                  ThemeColors(loaded.config) != dark else { return nil }
            return loaded.config
        }
        var twins = [BuildPlan.Loaded?](repeating: nil, count: plan.outputs.count)
        guard plan.configs.contains(where: { light($0) != nil }),
              let dark = try? BuildPlan.make(plan.origin, overrides: overrides + [.theme("dark")], checkCollisions: false),
              dark.outputs.count == plan.outputs.count else { return twins }
        for (o, d) in zip(plan.outputs, dark.outputs) where o.path == d.path && light(plan.configs[o.config]) != nil {
            if case let .success(loaded) = dark.configs[d.config].result { twins[o.index] = loaded }
        }
        return twins
    }

    /// `reference` packed, the bytes `wavegen presets pack REFERENCE -o FILE` writes (`generator`
    /// names the wavegen that packs it), offered as NAME.wavegen.json.
    static func pack(_ reference: String, generator: String) -> Result<PackedPreset, WaveError> {
        Result { () throws(WaveError) in
            let packed = try PresetPack.pack(reference, generator: generator)
            let base = PathText.lastComponent(of: reference)
            let name = base.hasSuffix(".wavegen.json") ? String(base.dropLast(13)) : base.hasSuffix(".json") ? String(base.dropLast(5)) : base
            return PackedPreset(fileName: name + ".wavegen.json", bytes: Array(packed.text.utf8))
        }
    }
}

/// The preview page's HTML.
public enum PreviewPage {
    static let lightBackground = "#FFFFFF"
    static let darkBackground = "#121212"

    public static func html(groups: [PreviewPage.Group], items: [PreviewPage.Item], entries: [PreviewEntry]) -> String {
        var body = ""
        for (g, group) in groups.enumerated() {
            let members = items.indices.filter { items[$0].group == g }
            body += "<section class=\"group\">\n<h2>\(escape(group.title)) <small>\(escape(group.subtitle))</small></h2>\n<div class=\"cards\">\n"
            for i in members { body += card(items[i], entries[i], pack: group.pack, id: i) }
            body += "</div>\n</section>\n"
        }
        let total = entries.reduce(0) { $0 + ($1.rendered?.bytes.count ?? 0) }
        let failed = entries.filter { $0.rendered == nil }.count
        let summary = "\(entries.count - failed) animations, \(NumberText.bytes(total)) in all"
            + (failed > 0 ? ", \(failed) failed" : "") + ". Each plays on a light (\(lightBackground)) and a dark (\(darkBackground)) background;"
            + " a preset with a dark twin shows its light theme on the light one and its dark theme on the dark one."
        return document(style: """
            .summary { color: #455A64; margin: 0; }
            .stage img, .stage .svg { display: block; line-height: 0; }
            .player { max-width: 240px; margin: 0; font-size: 12px; color: #546E7A; }
            label.level { display: flex; align-items: center; gap: 6px; margin-bottom: 8px; font-size: 12px; color: #455A64; }
            label.level output { font-variant-numeric: tabular-nums; min-width: 3.5em; }
            .pack { margin: 6px 0 0; font-size: 12px; color: #78909C; }
            pre { white-space: pre-wrap; font-size: 12px; color: #B71C1C; margin: 0; max-width: 480px; }
            """, body: """
            <h1>wavegen preview</h1>
            <p class="summary">\(escape(summary))</p>
            \(body)\(entries.contains { $0.rendered != nil && $0.liveLevel != nil } ? levelScript : "")
            """)
    }

    /// A preview page: the head, the style both preview pages share (`wavegen preview` and the
    /// live page of `wavegen serve`) followed by `style`, and `body`.
    static func document(style: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="wavegen \(WavegenVersion.current)">
        <title>wavegen preview</title>
        <style>
        :root { color-scheme: light; }
        body { margin: 24px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #212121; background: #ECEFF1; }
        h1 { font-size: 22px; margin: 0 0 4px; }
        h2 { font-size: 16px; margin: 28px 0 10px; }
        h2 small { font-weight: normal; color: #607D8B; margin-left: 6px; }
        .cards { display: flex; flex-wrap: wrap; gap: 14px; align-items: flex-start; }
        .card { margin: 0; background: #FFFFFF; border: 1px solid #CFD8DC; border-radius: 8px; padding: 10px 12px; }
        .card.failed { border-color: #E53935; background: #FFEBEE; }
        .card figcaption { font: 600 13px/1.3 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; margin-bottom: 8px; word-break: break-all; }
        .stages { display: flex; gap: 8px; }
        .stage { display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 4px; padding: 12px; border-radius: 6px; min-width: 64px; }
        .stage.light { background: \(lightBackground); border: 1px solid #E0E0E0; color: #757575; }
        .stage.dark { background: \(darkBackground); border: 1px solid #121212; color: #9E9E9E; }
        .stage > span { font-size: 11px; }
        dl { display: grid; grid-template-columns: max-content auto; gap: 1px 10px; margin: 8px 0 0; font-size: 12px; }
        dt { color: #78909C; }
        dd { margin: 0; font-variant-numeric: tabular-nums; }
        .over { color: #C62828; font-weight: 600; }
        \(style)
        </style>
        </head>
        <body>
        \(body)</body>
        </html>

        """
    }

    static func card(_ item: PreviewPage.Item, _ entry: PreviewEntry, pack: Result<PreviewThemes.PackedPreset, WaveError>?, id: Int) -> String {
        let o = item.output
        guard let r = entry.rendered else {
            return "<figure class=\"card failed\" id=\"output-\(id)\">\n<figcaption>\(escape(o.path))</figcaption>\n<pre>\(escape(entry.errors.joined(separator: "\n")))</pre>\n</figure>\n"
        }
        let twin = entry.hasDarkTwin
        /// One tile: `theme`'s background, and the output in that theme where the preset has a twin.
        func stage(_ theme: String) -> String {
            let shown = theme == "dark" && twin && o.format != .svg ? entry.dark : r
            let caption = twin ? "\(theme) theme" + (theme == "dark" && o.format != .svg ? " (--theme dark)" : "") : theme
            guard let shown else { return "<div class=\"stage \(theme)\" data-theme=\"\(theme)\"><span>\(caption): not rendered</span></div>" }
            let picture: String
            if o.format == .svg {
                // Inline, so that the tile's data-theme and the level slider's --level reach it. Two
                // copies of one SVG agree: its ids, classes and property names carry its digest.
                picture = "<div class=\"svg\" data-theme=\"\(theme)\">\(String(decoding: shown.bytes, as: UTF8.self))</div>"
            } else {
                let src = DataURI.encode(shown.bytes, mediaType: o.format.mimeType)
                picture = "<img src=\"\(src)\" width=\"\(shown.shownWidth)\" height=\"\(shown.shownHeight)\" alt=\"\(escape(o.path)) on \(theme)\">"
            }
            return "<div class=\"stage \(theme)\" data-theme=\"\(theme)\">\(picture)<span>\(caption)</span></div>"
        }
        /// A link that saves `bytes` as `name`.
        func download(_ bytes: [UInt8], _ mediaType: String, _ name: String, _ text: String) -> String {
            "<a download=\"\(escape(name))\" href=\"\(DataURI.encode(bytes, mediaType: mediaType))\">\(escape(text))</a>"
        }
        // A browser cannot show a Lottie without a player, and the page loads none: the card
        // lists the file (and its dark theme's) and their numbers.
        var stages: String
        if o.format == .lottie {
            let file = PathText.lastComponent(of: o.path)
            stages = "<p class=\"player\">Lottie JSON: plays in lottie-web, lottie-android, lottie-ios and rlottie; not shown here (this page loads no player). "
                + download(r.bytes, o.format.mimeType, file, twin ? "save the light theme" : "save the file")
            if let dark = entry.dark {
                stages += " · " + download(dark.bytes, o.format.mimeType, PathText.stem(of: file) + "-dark." + PathText.pathExtension(of: file), "save the dark theme (--theme dark)")
            }
            stages += "</p>"
        } else {
            stages = "<div class=\"stages\">\(stage("light"))\(stage("dark"))</div>"
        }
        if let level = entry.liveLevel {
            let percent = Int((level * 100).rounded())
            stages = "<label class=\"level\">level <input type=\"range\" class=\"level\" min=\"0\" max=\"100\" step=\"1\" value=\"\(percent)\">"
                + " <output>\(percent) %</output></label>\n" + stages
        }
        var facts = facts(o, r)
        if let dark = entry.dark { facts.append(darkFact(dark)) }
        let numbers = facts.map { f in
            "<dt>\(f.label)</dt><dd>\(escape(f.text))\(f.alert.map { " <span class=\"over\">\(escape($0))</span>" } ?? "")</dd>"
        }.joined()
        var packLine = ""
        switch pack {
        case let .success(p)?:
            packLine = "\n<p class=\"pack\">\(download(p.bytes, "application/json", p.fileName, "download packed preset")) (\(NumberText.bytes(p.bytes.count)), as 'wavegen presets pack' writes it)</p>"
        case let .failure(error)?:
            packLine = "\n<p class=\"pack\">cannot pack the preset: \(escape(error.lines.joined(separator: " ")))</p>"
        case nil:
            break
        }
        let problems = entry.errors.isEmpty ? "" : "\n<pre>\(escape(entry.errors.joined(separator: "\n")))</pre>"
        return """
            <figure class="card" id="output-\(id)">
            <figcaption>\(escape(o.path))</figcaption>
            \(stages)
            <dl>\(numbers)</dl>\(packLine)\(problems)
            </figure>

            """
    }

    /// The numbers line of an output's `--theme dark` render.
    static func darkFact(_ dark: RenderedOutput) -> Fact {
        Fact(label: "dark theme", text: "\(NumberText.grouped(dark.bytes.count)) bytes" + (dark.paletteSize > 0 ? ", \(dark.paletteSize) colors" : ""))
    }

    /// The static page's only script, on a page with a live SVG: its level slider sets `--level` on the wrappers of its
    /// card's SVGs (the level eases there; the drift goes on).
    static let levelScript = """
        <script>
        "use strict";
        for (const slider of document.querySelectorAll("input.level")) {
          const card = slider.closest(".card"), shown = card.querySelector("label.level output");
          const apply = () => {
            for (const wrapper of card.querySelectorAll(".svg")) wrapper.style.setProperty("--level", slider.value / 100);
            shown.textContent = slider.value + " %";
          };
          slider.addEventListener("input", apply);
          // A value the browser restored on reload.
          if (slider.value !== slider.defaultValue) apply();
        }
        </script>

        """

    /// One line of an output's numbers: a label, its text, and a part to show as a warning.
    struct Fact {
        var label: String
        var text: String
        var alert: String? = nil
    }

    /// What the page says of an output: its variant and level, format, size, frames and timing,
    /// bytes (against its budget) and palette. The live page (`wavegen serve`) shows the same.
    static func facts(_ o: BuildPlan.Output, _ r: RenderedOutput, draft: Bool = false) -> [Fact] {
        var size = "\(r.width)×\(r.height) px"
        if r.scale != 1 { size += " (@\(NumberText.decimal(r.scale, places: 3))x, shown at \(r.shownWidth)×\(r.shownHeight))" }
        var bytes = Fact(label: "bytes", text: "\(NumberText.grouped(r.bytes.count)) bytes" + (r.bytes.count >= 10_000 ? " (\(NumberText.bytes(r.bytes.count)))" : ""))
        if draft {
            // A slow loop's draft (`PreviewRender`): the final file's size is not known yet.
            bytes = Fact(label: "bytes", text: "still being measured (a quick draft is shown until the final file is ready)")
        } else if let budget = o.budget {
            if r.bytes.count > budget { bytes.alert = "over the budget of \(NumberText.grouped(budget))" } else { bytes.text += " of \(NumberText.grouped(budget)) allowed" }
        }
        var facts = [
            Fact(label: "format", text: o.format.name),
            Fact(label: "size", text: size),
            Fact(label: "frames", text: "\(r.frames) at \(NumberText.decimal(r.fps, places: 3)) fps, \(NumberText.decimal(r.duration, places: 3)) s loop"),
            bytes,
        ]
        // Vector formats have no palette.
        if r.paletteSize > 0 { facts.append(Fact(label: "palette", text: "\(r.paletteSize) colors")) }
        if let v = o.variant { facts.insert(Fact(label: "variant", text: v), at: 0) }
        if let l = o.level { facts.insert(Fact(label: "level", text: "\(Int((l * 100).rounded())) %"), at: 0) }
        return facts
    }

    /// Text for the page (paths, labels, error lines) as element content or an attribute value
    /// (`MarkupText`).
    static func escape(_ s: String) -> String { MarkupText.escaped(s) }
}
