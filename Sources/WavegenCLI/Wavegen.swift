import Foundation
import WaveGIF
import WaveKit
import WaveWebP

/// Where a command's output goes; tests capture it, the executable uses the process's streams.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void
    /// Whether stderr is an interactive terminal (progress lines and color only then).
    public var errIsTerminal: Bool

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void, errIsTerminal: Bool = false) {
        self.out = out
        self.err = err
        self.errIsTerminal = errIsTerminal
    }

    public static let standard = Console(
        out: { StandardStreams.write($0, to: FileHandle.standardOutput, failure: &StandardStreams.outputFailure) },
        err: { StandardStreams.write($0, to: FileHandle.standardError, failure: &StandardStreams.errorFailure) },
        errIsTerminal: isatty(2) != 0 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
            && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
}

/// A subcommand: its spec (for parsing and help) and what it does.
protocol Subcommand {
    static var spec: CommandSpec { get }
    static func run(_ arguments: ParsedArguments, console: Console) throws(CommandError)
}

/// The `wavegen` command line.
public enum Wavegen {
    public static let version = "0.1.0"

    static var subcommands: [any Subcommand.Type] {
        [RenderCommand.self, PlanCommand.self, ValidateCommand.self, PresetsCommand.self, BuildCommand.self, PreviewCommand.self]
    }

    static var overview: String { """
        OVERVIEW: Generate seamlessly looping water-wave animations (GIF and WebP) from JSON presets.

        USAGE: wavegen <subcommand> [options]

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
        \(subcommands.map { HelpFormatter.row($0.spec.name, $0.spec.abstract) }.joined(separator: "\n"))
          help                    Show help for a subcommand.

          See 'wavegen help <subcommand>' for detailed help.

        """
    }

    /// The process entry point: runs the command line and exits with its code. Interrupt and
    /// termination signals are unblocked first (a parent may have blocked them), so that an
    /// interrupted run can always clean up its temporary files.
    public static func main() -> Never {
        var signals = sigset_t()
        sigemptyset(&signals)
        for s in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, s) }
        sigprocmask(SIG_UNBLOCK, &signals, nil)
        exit(run(Array(CommandLine.arguments.dropFirst())))
    }

    /// Runs the command line `args` (without the program name) and returns the exit code.
    public static func run(_ args: [String], console: Console = .standard) -> Int32 {
        do throws(CommandError) {
            try dispatch(args, console: console)
            if let failure = StandardStreams.outputFailure {
                throw CommandError(.failure, ["cannot write to standard output: \(failure)"])
            }
            return ExitCode.success.rawValue
        } catch {
            for line in error.printedLines { console.err(line + "\n") }
            if error.showUsage {
                let sub = args.first.flatMap { name in subcommands.first { $0.spec.name == name } }
                console.err("Usage: \(sub?.spec.usage ?? "wavegen <subcommand> [options]")\n")
                console.err("  See 'wavegen \(sub.map { "help \($0.spec.name)" } ?? "--help")' for more.\n")
            }
            return error.code.rawValue
        }
    }

    static func dispatch(_ args: [String], console: Console) throws(CommandError) {
        guard let first = args.first else {
            console.out(overview)
            return
        }
        switch first {
        case "--help", "-h":
            console.out(overview)
            return
        case "--version":
            console.out("wavegen \(version)\n")
            return
        case "help":
            guard args.count > 1 else { console.out(overview); return }
            guard let sub = subcommands.first(where: { $0.spec.name == args[1] }) else {
                throw .usage("unknown subcommand '\(args[1])'")
            }
            console.out(HelpFormatter.help(for: sub.spec))
            return
        default:
            break
        }
        guard let sub = subcommands.first(where: { $0.spec.name == first }) else {
            let names = subcommands.map { $0.spec.name } + ["help"]
            let hint = Suggest.closest(to: first, among: names).map { " (did you mean '\($0)'?)" } ?? ""
            throw .usage(first.hasPrefix("-") ? "unknown option '\(first)'" : "unknown subcommand '\(first)'\(hint)")
        }
        let parsed = try ArgumentParser.parse(Array(args.dropFirst()), spec: sub.spec)
        if parsed.has("--help") {
            console.out(HelpFormatter.help(for: sub.spec))
            return
        }
        try sub.run(parsed, console: console)
    }
}

extension Wavegen {
    /// The preset loader the command line uses (rider images decoded by libpng), for tools that
    /// run the same pipeline (the benchmark, the fuzzer).
    public static var presetLoader: PresetLoader { PresetOptions.loader }

    /// The largest rider image the preset loader decodes, in pixels.
    public static var maximumImagePixels: Int { PresetOptions.maximumImagePixels }

    /// A config's label rendered with FreeType and placed, as `render` draws it.
    public static func labelOverlay(_ config: WaveConfig) throws(CommandError) -> LabelOverlay? {
        try AnimationEncoder.labelOverlay(config)
    }

    /// Renders and encodes a config's animation exactly as `render` does (frames on `threads`
    /// threads, 0 = one per core); returns the file's bytes.
    public static func encode(_ config: WaveConfig, plan: LoopPlan, format: OutputFormat, threads: Int) throws(CommandError) -> [UInt8] {
        try AnimationEncoder(threads: threads).encode(config, plan: plan, format: format).bytes
    }

    /// The WebP encoder's settings `render` uses for a config.
    public static func webpOptions(_ config: WaveConfig) -> WebPAnimationEncoder.Options {
        AnimationEncoder.webpOptions(config)
    }

    /// The GIF encoder `render` uses for a renderer's frames.
    public static func gifEncoder(_ renderer: FrameRenderer) throws(GIFError) -> GIFEncoder {
        try AnimationEncoder.gifEncoder(renderer)
    }
}

/// Writes to the process's standard streams without trapping when they fail (a full disk, a closed
/// pipe): the first failure is remembered, and later writes to that stream are skipped.
enum StandardStreams {
    nonisolated(unsafe) static var outputFailure: String?
    nonisolated(unsafe) static var errorFailure: String?

    static func write(_ text: String, to handle: FileHandle, failure: inout String?) {
        guard failure == nil else { return }
        do {
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            failure = String(cString: strerror(errno == 0 ? EIO : errno))
        }
    }
}

extension WaveConfig {
    /// The file a config came from, for messages (its name when it was built in code).
    var source: String { file.isEmpty ? name : file }

    /// A problem with the config as a whole (its loop plan, its size), reported against its file.
    func problem(_ message: String, keyPath: String = "", kind: DocumentProblem.Kind = .invalid) -> CommandError {
        CommandError(DocumentError(DocumentProblem(file: source, keyPath: keyPath, message: message, kind: kind)))
    }
}
