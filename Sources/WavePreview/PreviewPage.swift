import Foundation
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
    public static func make(inputs: [String], overrides cli: [PresetOverride], workers: Int, progress: some OutputProgress,
                            printError: @escaping (String) -> Void) throws(CommandError) -> (html: String, items: [Item], entries: [PreviewEntry]) {
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
                    groups.append(title(o.job))
                    groupOfJob[o.job.index] = groups.count - 1
                    return groups.count - 1
                }()
                items.append(Item(group: g, output: o, plan: p))
            }
        }
        func flushPresets() throws(CommandError) {
            guard !presets.isEmpty else { return }
            add(try OutputSet.presets(presets, formats: [.gif, .webp, .apng], overrides: cli)) { job in Group(title: job.presetText, subtitle: "preset") }
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
                add(try OutputSet.manifest(manifest, overrides: cli)) { job in
                    Group(title: "\(job.label)", subtitle: "\(manifest.file) · preset \(job.presetText)")
                }
            } else {
                presets.append(input)
            }
        }
        try flushPresets()
        for set in sets { for w in set.plan.warnings { printError("warning: \(w)\n") } }

        let entries = OutputSet.make(items.map(\.output), workers: workers, progress: progress, printError: printError,
                                     problems: { (entry: PreviewEntry) in (entry.errors, entry.located) }, work: { i -> PreviewEntry in
            switch sets[items[i].plan].render(items[i].output, threads: workers == 1 ? 0 : 1) {
            case let .success(r): return PreviewEntry(rendered: r, errors: [], code: .success)
            case let .failure(error): return PreviewEntry(rendered: nil, errors: error.lines, code: error.exitCode, located: error.located)
            }
        })
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
    public var errors: [String]
    public var code: ExitCode
    /// The errors are document problems in the compiler form: printed as they are, once per page.
    public var located = false

    public init(rendered: RenderedOutput?, errors: [String], code: ExitCode, located: Bool = false) {
        self.rendered = rendered
        self.errors = errors
        self.code = code
        self.located = located
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

    static func card(_ item: PreviewPage.Item, _ entry: PreviewEntry, id: Int) -> String {
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
