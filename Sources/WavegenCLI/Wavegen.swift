import WaveKit
import WavePlatform
import WaveRender
import WaveBuild
import WavePreview

/// Where a command's output goes; tests capture it, the executable uses the process's streams.
///
/// Text goes out through `out(_:)` and `err(_:)`, which show every character a terminal would act
/// on escaped (`TerminalText`; line breaks and tabs kept), so no key, name or path from an input
/// can reach the terminal raw, whichever line it is part of.
public struct Console: Sendable {
    /// Where stdout text goes, as it is.
    public var outSink: @Sendable (String) -> Void
    /// Where stderr text goes, as it is.
    public var errSink: @Sendable (String) -> Void
    /// Binary output on stdout (`render -o -`).
    public var outBytes: @Sendable ([UInt8]) -> Void
    /// Whether stderr is an interactive terminal (progress lines and color only then).
    public var errIsTerminal: Bool
    /// Whether stdout is a terminal (binary output is refused there).
    public var outIsTerminal: Bool

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
                outBytes: @escaping @Sendable ([UInt8]) -> Void = { _ in }, errIsTerminal: Bool = false, outIsTerminal: Bool = false) {
        outSink = out
        errSink = err
        self.outBytes = outBytes
        self.errIsTerminal = errIsTerminal
        self.outIsTerminal = outIsTerminal
    }

    public static let standard = Console(
        out: { StandardStreams.write(Array($0.utf8), to: 1, failure: &StandardStreams.outputFailure) },
        err: { StandardStreams.write(Array($0.utf8), to: 2, failure: &StandardStreams.errorFailure) },
        outBytes: { StandardStreams.write($0, to: 1, failure: &StandardStreams.outputFailure) },
        errIsTerminal: Descriptor.isTerminal(2) && ProcessEnvironment.value("TERM") != "dumb"
            && ProcessEnvironment.value("NO_COLOR") == nil,
        outIsTerminal: Descriptor.isTerminal(1))

    /// Writes `text` to stdout, terminal controls escaped.
    public func out(_ text: String) { outSink(TerminalText.escaped(text, keepingLayout: true)) }

    /// Writes `text` to stderr, terminal controls escaped.
    public func err(_ text: String) { errSink(TerminalText.escaped(text, keepingLayout: true)) }

    /// Writes a control sequence of wavegen's own to stderr as it is (the progress line's return
    /// and erase); never text that holds anything from an input.
    func errControl(_ sequence: String) { errSink(sequence) }
}

extension ProgressLine {
    /// The progress line on `console`'s stderr.
    convenience init(_ console: Console, enabled: Bool) {
        self.init(text: console.err, control: console.errControl, enabled: enabled)
    }
}

/// A subcommand: its spec (for parsing and help) and what it does.
protocol Subcommand {
    static var spec: CommandSpec { get }
    static func run(_ arguments: ParsedArguments, console: Console) throws(WaveError)
}

/// The `wavegen` command line.
public enum Wavegen {
    /// The release number.
    public static let version = WavegenVersion.current

    /// The commit the binary was built from (`abc1234`, `abc1234-dirty`), when the build recorded it.
    public static var commit: String? { BuildStamp.commit }

    /// The version as `--version`, build reports and lock files record it: `0.1.0 (abc1234)`, or
    /// `0.1.0` for a build that did not record its commit.
    public static var versionDescription: String { commit.map { "\(version) (\($0))" } ?? version }

    static var subcommands: [any Subcommand.Type] {
        [RenderCommand.self, PlanCommand.self, ValidateCommand.self, PresetsCommand.self, BuildCommand.self, PreviewCommand.self,
         ServeCommand.self, CompletionsCommand.self, ManPageCommand.self]
    }

    /// What wavegen does, in one line (help's overview, the man page's NAME).
    static let abstract = "Generate seamlessly looping water-wave animations (GIF, WebP, APNG, SVG, Lottie and dotLottie) from JSON presets."

    /// The options accepted without a subcommand.
    static let globalOptions = [
        OptionSpec(names: ["--version"], value: nil, help: "Show the version."),
        CommandSpec.helpOption,
    ]

    /// `wavegen help <subcommand>`, which is dispatched here rather than by a `Subcommand`.
    static var helpSpec: CommandSpec {
        CommandSpec(name: "help", abstract: "Show help for a subcommand.", usage: "wavegen help <subcommand>",
                    arguments: [ArgumentSpec(name: "<subcommand>", help: "The subcommand to describe.",
                                             completion: .words(subcommands.map { $0.spec.name }))])
    }

    /// Every subcommand's spec, `help` last: what the overview, the man page and completions list.
    static var commandSpecs: [CommandSpec] { subcommands.map { $0.spec } + [helpSpec] }

    static var overview: String { """
        OVERVIEW: \(abstract)

        USAGE: wavegen <subcommand> [options]

        OPTIONS:
        \(globalOptions.map { HelpFormatter.row($0.synopsis, $0.helpWithDefault) }.joined(separator: "\n"))

        SUBCOMMANDS:
        \(commandSpecs.map { HelpFormatter.row($0.name, $0.abstract) }.joined(separator: "\n"))

          See 'wavegen help <subcommand>' for detailed help.

        """
    }

    /// The process entry point: runs the command line and exits with its code. Interrupt and
    /// termination signals are unblocked first (a parent may have blocked them), so that an
    /// interrupted run can always clean up its temporary files.
    public static func main() -> Never {
        Signals.unblock(Signals.stopping)
        ProcessEnvironment.exit(run(Array(CommandLine.arguments.dropFirst())))
    }

    /// Runs the command line `args` (without the program name) and returns the exit code.
    public static func run(_ args: [String], console: Console = .standard) -> Int32 {
        do throws(WaveError) {
            try dispatch(args, console: console)
            if let failure = StandardStreams.outputFailure {
                throw WaveError(.failure, ["cannot write to standard output: \(failure)"])
            }
            return ExitCode.success.rawValue
        } catch {
            for line in error.printedLines { console.err(line + "\n") }
            if error.kind == .usage {
                let sub = args.first.flatMap { name in subcommands.first { $0.spec.name == name } }
                console.err("Usage: \(sub?.spec.usage ?? "wavegen <subcommand> [options]")\n")
                console.err("  See 'wavegen \(sub.map { "help \($0.spec.name)" } ?? "--help")' for more.\n")
            }
            return error.exitCode.rawValue
        }
    }

    /// " (did you mean 'render'?)" for a mistyped subcommand, or "".
    static func suggestion(for name: String) -> String {
        let names = subcommands.map { $0.spec.name } + ["help"]
        return Suggest.closest(to: name, among: names).map { " (did you mean '\($0)'?)" } ?? ""
    }

    static func dispatch(_ args: [String], console: Console) throws(WaveError) {
        guard let first = args.first else {
            console.out(overview)
            return
        }
        switch first {
        case "--help", "-h":
            console.out(overview)
            return
        case "--version":
            console.out("wavegen \(versionDescription)\n")
            return
        case "help":
            guard args.count > 1, !["help", "--help", "-h"].contains(args[1]) else { console.out(overview); return }
            guard let sub = subcommands.first(where: { $0.spec.name == args[1] }) else {
                throw .usage("unknown subcommand '\(args[1])'\(suggestion(for: args[1]))")
            }
            console.out(HelpFormatter.help(for: sub.spec))
            return
        default:
            break
        }
        guard let sub = subcommands.first(where: { $0.spec.name == first }) else {
            throw .usage(first.hasPrefix("-") ? "unknown option '\(first)'" : "unknown subcommand '\(first)'\(suggestion(for: first))")
        }
        let parsed = try ArgumentParser.parse(Array(args.dropFirst()), spec: sub.spec)
        if parsed.has("--help") {
            console.out(HelpFormatter.help(for: sub.spec))
            return
        }
        try sub.run(parsed, console: console)
    }
}

/// Writes to the process's standard streams without trapping when they fail (a full disk, a closed
/// pipe): the first failure is remembered, and later writes to that stream are skipped.
enum StandardStreams {
    nonisolated(unsafe) static var outputFailure: String?
    nonisolated(unsafe) static var errorFailure: String?

    static func write(_ bytes: [UInt8], to fd: Int32, failure: inout String?) {
        guard failure == nil else { return }
        if let code = Descriptor.writeAll(fd, bytes) { failure = errorText(code) }
    }
}

extension WaveConfig {
    /// A problem with the config as a whole (its loop plan, its size), reported against its file.
    func problem(_ message: String, keyPath: String = "", kind: DocumentProblem.Kind = .invalid) -> WaveError {
        WaveError(DocumentProblem(file: source, keyPath: keyPath, message: message, kind: kind))
    }
}
