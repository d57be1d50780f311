import Foundation
import WaveKit
import WaveRender

/// `wavegen preview [MANIFEST or PRESET...] -o preview.html`: one self-contained HTML page showing
/// every output of a manifest (or each preset as GIF and WebP) playing on a light and a dark
/// background, with its numbers.
enum PreviewCommand: Subcommand {
    static let spec = CommandSpec(
        name: "preview",
        abstract: "Write an HTML page that plays every output of a manifest (or presets) on light and dark backgrounds.",
        usage: "wavegen preview [<manifest> | <preset> ...] --output <file.html> | --watch [--port <n>] [options]",
        arguments: [
            // A manifest or a preset may come first, so both complete as presets (names and files).
            ArgumentSpec(name: "<manifest>", help: "A build manifest, or a folder holding wavegen.json (default: ./wavegen.json).", completion: .presets),
            ArgumentSpec(name: "<preset>", help: "A preset file or bundled name, shown as GIF and WebP (with --watch, in every format a browser shows).",
                         completion: .presets, repeats: true),
        ],
        options: [
            OptionSpec(names: ["--output", "-o"], value: "file", help: "The HTML file to write.", completion: .files(["html"])),
            OptionSpec(names: ["--watch", "-w"], value: nil, help: "Serve the page on 127.0.0.1 instead, re-rendering when files change (as 'wavegen serve')."),
            ServeCommand.portOption,
            OptionSpec(names: ["--jobs", "-j"], value: "n", help: "Render this many images at once; at most 64 are used, a larger count is clamped with a warning.", defaultText: "one per core"),
            OptionSpec(names: ["--quiet", "-q"], value: nil, help: "Print nothing on success."),
        ] + PresetOptions.specs,
        discussion: """
            Everything is rendered in memory (nothing but the page is written) and embedded as
            data: URIs, so the page can be opened, mailed or attached anywhere. Images made at a
            scale (@2x, @3x) are shown at their size at scale 1, as an app shows them. A preset
            with a dark twin shows its dark theme on the dark background, a live SVG gets a level
            slider, and each card links its preset packed as 'wavegen presets pack' writes it. With
            --watch, nothing is written: the page is served live instead; see 'wavegen help serve'.
            """)

    /// One image on the page.
    struct Item {
        var group: Int
        var output: BuildPlan.Output
        var plan: Int
    }

    /// A section of the page: one manifest job, or one preset.
    struct Group {
        var title: String
        var subtitle: String
        /// The preset reference the job loads (what `presets pack` is given for its cards' link).
        var preset: String = ""
        /// The preset packed (`PresetPack`), or why it could not be.
        var pack: Result<PreviewThemes.PackedPreset, RenderError>? = nil
    }

    static func run(_ a: ParsedArguments, console: Console) throws(CommandError) {
        if a.has("--watch") {
            if a.value("--output") != nil { throw .usage("--watch serves the page instead of writing it; drop --output") }
            return try ServeCommand.run(a, console: console)
        }
        if a.value("--port") != nil { throw .usage("--port needs --watch (or use 'wavegen serve')") }
        guard let file = a.value("--output") else { throw .usage("missing --output <file.html> (or --watch to serve the page live)") }
        let ext = PathText.pathExtension(of: file).lowercased()
        if file == "-" || OutputFormat(fileExtension: ext) != nil {
            throw .usage("preview writes an HTML page; name a file such as preview.html, got '\(file)'")
        }
        let workers = try BuildCommand.jobCount(a, console: console)
        let cli = try PresetOptions.overrides(a)
        let inputs = try self.inputs(a, example: "wavegen preview path/to/wavegen.json -o preview.html")
        try AtomicFile.checkWritable(file)

        var plans: [BuildPlan] = []
        var groups: [Group] = []
        var items: [Item] = []
        var presets: [BuildManifest.Job] = []
        func addPlan(_ plan: BuildPlan, title: (BuildManifest.Job) -> Group) {
            let p = plans.count
            plans.append(plan)
            var groupOfJob: [Int: Int] = [:]
            for o in plan.outputs {
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
        func flushPresets() throws(CommandError) {
            guard !presets.isEmpty else { return }
            let manifest = BuildManifest(file: "(command line)", directory: "", jobs: presets)
            let plan = try BuildPlan.forCommand(manifest, overrides: cli, checkCollisions: false)
            addPlan(plan) { job in Group(title: job.presetText, subtitle: "preset") }
            presets.removeAll()
        }
        for input in inputs {
            let path = BuildManifest.locate(input)
            if BuildManifest.looksLikeManifest(path) {
                try flushPresets()
                let manifest: BuildManifest
                do {
                    manifest = try BuildManifest.load(path)
                } catch {
                    throw CommandError(error)
                }
                addPlan(try BuildPlan.forCommand(manifest, overrides: cli)) { job in
                    Group(title: "\(job.label)", subtitle: "\(manifest.file) · preset \(job.presetText)")
                }
            } else {
                presets.append(presetJob(input, index: presets.count, formats: [.gif, .webp, .apng]))
            }
        }
        try flushPresets()
        for plan in plans { for w in plan.warnings { console.err("warning: \(w)\n") } }

        // The dark theme of each output whose preset has a dark twin, rendered after the light ones
        // (an SVG carries both themes: it is shown twice instead).
        let twins = plans.map { PreviewThemes.darkTwins(of: $0, overrides: cli) }
        let darkItems = items.indices.filter { items[$0].output.format != .svg && twins[items[$0].plan][items[$0].output.index] != nil }
        let progress = ProgressLine(console: console, enabled: console.errIsTerminal && !a.has("--quiet"), total: items.count + darkItems.count)
        var reported = Set<String>()
        let threads = workers == 1 ? 0 : 1
        let rendered = OrderedWork.run(count: items.count + darkItems.count, workers: workers, work: { i -> PreviewEntry in
            guard i < items.count else {
                let item = items[darkItems[i - items.count]]
                defer { progress.finished(item.output.path + " (dark)") }
                return PreviewEntry.render(twins[item.plan][item.output.index]!, item.output, threads: threads)
            }
            let item = items[i]
            defer { progress.finished(item.output.path) }
            switch plans[item.plan].configs[item.output.config].result {
            case let .failure(f):
                return PreviewEntry(rendered: nil, errors: f.lines, code: f.exitCode, located: f.located)
            case let .success(loaded):
                var entry = PreviewEntry.render(loaded, item.output, threads: threads)
                if item.output.job.live, case let .still(level) = loaded.config.level { entry.liveLevel = level }
                entry.hasDarkTwin = twins[item.plan][item.output.index] != nil
                return entry
            }
        }, started: { _, i in
            progress.started(i < items.count ? items[i].output.path : items[darkItems[i - items.count]].output.path + " (dark)")
        }, deliver: { i, entry in
            if !entry.errors.isEmpty {
                progress.clear()
                let o = items[i < items.count ? i : darkItems[i - items.count]].output
                for line in entry.errors where !entry.located || reported.insert(line).inserted {
                    console.err(entry.located ? line + "\n" : "Error: \(o.job.label): \(o.path): \(line)\n")
                }
                progress.redraw()
            }
        })
        progress.finish()
        var entries = Array(rendered.prefix(items.count))
        for (k, i) in darkItems.enumerated() {
            let dark = rendered[items.count + k]
            entries[i].dark = dark.rendered
            entries[i].errors += dark.errors.map { "dark theme: " + $0 }
            if entries[i].code == .success { entries[i].code = dark.code }
        }
        var packs: [String: Result<PreviewThemes.PackedPreset, RenderError>] = [:]
        for g in groups.indices where !groups[g].preset.isEmpty {
            if packs[groups[g].preset] == nil { packs[groups[g].preset] = PreviewThemes.pack(groups[g].preset) }
            groups[g].pack = packs[groups[g].preset]
        }

        let html = PreviewPage.html(groups: groups, items: items, entries: entries)
        try AtomicFile.write(Array(html.utf8), to: file)
        let failed = entries.filter { $0.rendered == nil }.count
        if !a.has("--quiet") || failed > 0 {
            let sources = inputs.count == 1 ? inputs[0] : "\(inputs.count) inputs"
            let noun = items.count == 1 ? "animation" : "animations"
            console.out("\(file): \(items.count - failed) \(noun) from \(sources)\(failed > 0 ? " (\(failed) failed)" : ""), \(NumberText.bytes(html.utf8.count))\n")
        }
        let codes = Set(entries.map(\.code))
        for code in [ExitCode.noInput, .dataError, .failure] where codes.contains(code) { throw CommandError(code, []) }
    }

    /// The inputs named, or ./wavegen.json when none is (an error naming `example` when it is missing).
    static func inputs(_ a: ParsedArguments, example: String) throws(CommandError) -> [String] {
        guard a.positionals.isEmpty else { return a.positionals }
        guard FileManager.default.fileExists(atPath: BuildManifest.defaultFileName) else {
            throw CommandError(DocumentError(DocumentProblem(
                file: BuildManifest.defaultFileName, message: "no such file (name a manifest or presets: \(example))", kind: .missingInput)))
        }
        return [BuildManifest.defaultFileName]
    }

    /// A preset named on the command line as a job of its own, shown in `formats`; its output path
    /// (`{name}.{format}`) is only a label.
    static func presetJob(_ input: String, index: Int, formats: [OutputFormat]) -> BuildManifest.Job {
        BuildManifest.Job(
            index: index, name: input, presetText: input, preset: input,
            output: try! OutputTemplate.parse("{name}.{format}").get(), outputLine: 0, outputColumn: 0,
            formats: formats, scales: nil, levels: nil, variants: nil, overrides: [], budget: BuildManifest.Budget(),
            standalone: true)
    }
}

extension RenderedOutput {
    /// The size an image made at a scale (@2x, @3x) is shown at: its size at scale 1, as an app shows it.
    var shownWidth: Int { max(1, Int((Double(width) / scale).rounded())) }
    var shownHeight: Int { max(1, Int((Double(height) / scale).rounded())) }
}

/// What previewing one output produced.
struct PreviewEntry: Sendable {
    var rendered: RenderedOutput?
    var errors: [String]
    var code: ExitCode
    /// The errors are document problems in the compiler form: printed as they are, once per page.
    var located = false
    /// The output's `--theme dark` render (raster and Lottie outputs of a preset with a dark twin).
    var dark: RenderedOutput? = nil
    /// Whether the output's preset has a dark twin (an SVG shows it from its own file).
    var hasDarkTwin = false
    /// For a live SVG, the preset's own level (0…1), where the page's level slider starts.
    var liveLevel: Double? = nil

    /// Renders `output` of `loaded`; a failure becomes the entry's errors.
    static func render(_ loaded: BuildPlan.Loaded, _ output: BuildPlan.Output, threads: Int) -> PreviewEntry {
        do throws(RenderError) {
            let r = try RenderedOutput.render(loaded, format: output.format, live: output.job.live, fitTo: output.fitLimit, threads: threads)
            return PreviewEntry(rendered: r, errors: [], code: .success)
        } catch {
            return PreviewEntry(rendered: nil, errors: error.lines, code: error.exitCode, located: error.located)
        }
    }
}

/// What both preview pages add for themes and sharing: each output's dark twin, and each preset
/// packed as `wavegen presets pack` writes it.
enum PreviewThemes {
    /// A preset as `wavegen presets pack` writes it, and the name the page offers to save it as.
    struct PackedPreset: Sendable, Equatable {
        var fileName: String
        var bytes: [UInt8]
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
              let dark = try? BuildPlan.make(plan.manifest, overrides: overrides + [.theme("dark")], checkCollisions: false),
              dark.outputs.count == plan.outputs.count else { return twins }
        for (o, d) in zip(plan.outputs, dark.outputs) where o.path == d.path && light(plan.configs[o.config]) != nil {
            if case let .success(loaded) = dark.configs[d.config].result { twins[o.index] = loaded }
        }
        return twins
    }

    /// `reference` packed, the bytes `wavegen presets pack REFERENCE -o FILE` writes, offered as
    /// NAME.wavegen.json.
    static func pack(_ reference: String) -> Result<PackedPreset, RenderError> {
        Result { () throws(RenderError) in
            let packed = try PresetPack.pack(reference, generator: "wavegen \(Wavegen.versionDescription)")
            let base = PathText.lastComponent(of: reference)
            let name = base.hasSuffix(".wavegen.json") ? String(base.dropLast(13)) : base.hasSuffix(".json") ? String(base.dropLast(5)) : base
            return PackedPreset(fileName: name + ".wavegen.json", bytes: Array(packed.text.utf8))
        }
    }
}

/// The preview page's HTML.
enum PreviewPage {
    static let lightBackground = "#FFFFFF"
    static let darkBackground = "#121212"

    static func html(groups: [PreviewCommand.Group], items: [PreviewCommand.Item], entries: [PreviewEntry]) -> String {
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
        <meta name="generator" content="wavegen \(Wavegen.version)">
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

    static func card(_ item: PreviewCommand.Item, _ entry: PreviewEntry, pack: Result<PreviewThemes.PackedPreset, RenderError>?, id: Int) -> String {
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
    static func facts(_ o: BuildPlan.Output, _ r: RenderedOutput) -> [Fact] {
        var size = "\(r.width)×\(r.height) px"
        if r.scale != 1 { size += " (@\(NumberText.decimal(r.scale, places: 3))x, shown at \(r.shownWidth)×\(r.shownHeight))" }
        var bytes = Fact(label: "bytes", text: "\(NumberText.grouped(r.bytes.count)) bytes" + (r.bytes.count >= 10_000 ? " (\(NumberText.bytes(r.bytes.count)))" : ""))
        if let budget = o.budget {
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
