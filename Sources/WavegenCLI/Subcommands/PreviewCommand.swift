import WavePlatform
import WaveKit
import WaveRender
import WaveBuild
import WavePreview

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

    static func run(_ a: ParsedArguments, console: Console) throws(WaveError) {
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
        let inputs = try OutputSet.inputs(a.positionals, example: "wavegen preview path/to/wavegen.json -o preview.html")
        try AtomicFile.checkWritable(file)

        let progress = ProgressLine(console, enabled: console.errIsTerminal && !a.has("--quiet"))
        let (html, items, entries) = try PreviewPage.make(inputs: inputs, overrides: cli, workers: workers, generator: "wavegen \(Wavegen.versionDescription)", progress: progress,
                                                          printError: { console.err($0) })
        try AtomicFile.write(Array(html.utf8), to: file)
        let failed = entries.filter { $0.rendered == nil }.count
        if !a.has("--quiet") || failed > 0 {
            let sources = inputs.count == 1 ? inputs[0] : "\(inputs.count) inputs"
            let noun = items.count == 1 ? "animation" : "animations"
            console.out("\(file): \(items.count - failed) \(noun) from \(sources)\(failed > 0 ? " (\(failed) failed)" : ""), \(NumberText.bytes(html.utf8.count))\n")
        }
        let kinds = entries.compactMap(\.failure?.kind)
        for code in [ExitCode.noInput, .dataError, .failure] {
            if let kind = kinds.first(where: { $0.exitCode == code }) { throw WaveError(kind, []) }
        }
    }
}
