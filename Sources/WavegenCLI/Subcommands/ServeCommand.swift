import WavePlatform
import WaveKit
import WaveBuild
import WavePreview

/// `wavegen serve [MANIFEST or PRESET...]`, also spelled `wavegen preview --watch`: a page on
/// 127.0.0.1 that shows the outputs and re-renders them when a file they read changes.
enum ServeCommand: Subcommand {
    static let portOption = OptionSpec(names: ["--port"], value: "n", help: "The port to listen on (127.0.0.1 only); 0 lets the system pick a free one.",
                                       defaultText: "0")

    static let spec = CommandSpec(
        name: "serve",
        abstract: "Serve a live preview page on 127.0.0.1 that re-renders presets and manifests when their files change.",
        usage: "wavegen serve [<manifest> | <preset> ...] [--port <n>] [options]",
        arguments: [
            ArgumentSpec(name: "<manifest>", help: "A build manifest, or a folder holding wavegen.json (default: ./wavegen.json).", completion: .presets),
            ArgumentSpec(name: "<preset>", help: "A preset file or bundled name, shown in every format a browser shows.", completion: .presets, repeats: true),
        ],
        options: [
            portOption,
            OptionSpec(names: ["--jobs", "-j"], value: "n", help: "Render this many images at once; at most 64 are used, a larger count is clamped with a warning.", defaultText: "one per core"),
            OptionSpec(names: ["--quiet", "-q"], value: nil, help: "Print only the address, errors and warnings."),
        ] + PresetOptions.specs,
        discussion: discussion)

    static let discussion = """
        The same as 'wavegen preview --watch'. Listens on 127.0.0.1 only and prints the page's
        address (http://127.0.0.1:PORT/) on standard output. The page shows each preset in every
        format a browser shows (GIF, WebP, SVG), or each output of a manifest, on a light and a
        dark tile, with play and pause, frame stepping, zoom and each output's frames, timing,
        bytes and warnings; a preset with a dark twin in its dark theme on the dark tile, a live
        SVG with a level slider, and on every card a link to the preset packed as 'wavegen
        presets pack' writes it. The files are checked every 25 ms: when a preset, a preset it
        extends, a manifest, a rider image or a font changes, what changed is rendered again and
        the open page updates by itself. Errors are shown on the page and printed on standard
        error; the server keeps running. It serves only the page, its event stream and the files
        it rendered (kept in memory). Ctrl-C (SIGINT) or SIGTERM stops it with exit status 0; a
        port in use is exit status 69.
        """

    static func run(_ a: ParsedArguments, console: Console) throws(WaveError) {
        let port = try self.port(a)
        let workers = try BuildCommand.jobCount(a, console: console)
        let overrides = try PresetOptions.overrides(a)
        let inputs = try OutputSet.inputs(a.positionals, example: "wavegen serve path/to/wavegen.json")
        try LivePreview.serve(inputs, port: port, overrides: overrides, workers: workers, log: LiveLog(out: console.out, err: console.err),
                              quiet: a.has("--quiet"), version: Wavegen.versionDescription) { console.out($0 + "\n") }
    }

    static func port(_ a: ParsedArguments) throws(WaveError) -> UInt16 {
        guard let text = a.value("--port") else { return 0 }
        guard let n = UInt16(text) else { throw .usage("--port expects a port number from 0 to 65535, got '\(text)'") }
        return n
    }
}
