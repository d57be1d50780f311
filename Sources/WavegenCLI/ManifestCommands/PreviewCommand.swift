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
            scale (@2x, @3x) are shown at their size at scale 1, as an app shows them. With
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
                    groups.append(title(o.job))
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

        let progress = ProgressLine(console: console, enabled: console.errIsTerminal && !a.has("--quiet"), total: items.count)
        var reported = Set<String>()
        let entries = OrderedWork.run(count: items.count, workers: workers, work: { i -> PreviewEntry in
            let item = items[i]
            defer { progress.finished(item.output.path) }
            switch plans[item.plan].configs[item.output.config].result {
            case let .failure(f):
                return PreviewEntry(rendered: nil, errors: f.lines, code: f.exitCode, located: f.located)
            case let .success(loaded):
                do throws(RenderError) {
                    let r = try RenderedOutput.render(loaded, format: item.output.format, live: item.output.job.live, fitTo: item.output.fitLimit, threads: workers == 1 ? 0 : 1)
                    return PreviewEntry(rendered: r, errors: [], code: .success)
                } catch {
                    return PreviewEntry(rendered: nil, errors: error.lines, code: error.exitCode, located: error.located)
                }
            }
        }, started: { _, i in
            progress.started(items[i].output.path)
        }, deliver: { i, entry in
            if !entry.errors.isEmpty {
                progress.clear()
                let o = items[i].output
                for line in entry.errors where !entry.located || reported.insert(line).inserted {
                    console.err(entry.located ? line + "\n" : "Error: \(o.job.label): \(o.path): \(line)\n")
                }
                progress.redraw()
            }
        })
        progress.finish()

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
            for i in members { body += card(items[i], entries[i], id: i) }
            body += "</div>\n</section>\n"
        }
        let total = entries.reduce(0) { $0 + ($1.rendered?.bytes.count ?? 0) }
        let failed = entries.filter { $0.rendered == nil }.count
        let summary = "\(entries.count - failed) animations, \(NumberText.bytes(total)) in all"
            + (failed > 0 ? ", \(failed) failed" : "") + ". Each plays on a light (\(lightBackground)) and a dark (\(darkBackground)) background."
        return document(style: """
            .summary { color: #455A64; margin: 0; }
            .stage img { display: block; }
            .player { max-width: 240px; margin: 0; font-size: 12px; color: #546E7A; }
            pre { white-space: pre-wrap; font-size: 12px; color: #B71C1C; margin: 0; max-width: 480px; }
            """, body: """
            <h1>wavegen preview</h1>
            <p class="summary">\(escape(summary))</p>
            \(body)
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

    static func card(_ item: PreviewCommand.Item, _ entry: PreviewEntry, id: Int) -> String {
        let o = item.output
        guard let r = entry.rendered else {
            return "<figure class=\"card failed\" id=\"output-\(id)\">\n<figcaption>\(escape(o.path))</figcaption>\n<pre>\(escape(entry.errors.joined(separator: "\n")))</pre>\n</figure>\n"
        }
        let src = DataURI.encode(r.bytes, mediaType: o.format.mimeType)
        func image(_ theme: String) -> String {
            "<div class=\"stage \(theme)\"><img src=\"\(src)\" width=\"\(r.shownWidth)\" height=\"\(r.shownHeight)\" alt=\"\(escape(o.path)) on \(theme)\"><span>\(theme)</span></div>"
        }
        // A browser cannot show a Lottie without a player, and the page loads no script: the card
        // lists the file and its numbers.
        let stages = o.format == .lottie
            ? "<p class=\"player\">Lottie JSON: plays in lottie-web, lottie-android, lottie-ios and rlottie; not shown here (this page loads no player)</p>"
            : "<div class=\"stages\">\(image("light"))\(image("dark"))</div>"
        let numbers = facts(o, r).map { f in
            "<dt>\(f.label)</dt><dd>\(escape(f.text))\(f.alert.map { " <span class=\"over\">\(escape($0))</span>" } ?? "")</dd>"
        }.joined()
        return """
            <figure class="card" id="output-\(id)">
            <figcaption>\(escape(o.path))</figcaption>
            \(stages)
            <dl>\(numbers)</dl>
            </figure>

            """
    }

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
