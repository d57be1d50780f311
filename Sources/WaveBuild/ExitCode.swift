import WaveKit

/// Process exit codes, shared by every subcommand (sysexits.h values where one fits).
public enum ExitCode: Int32, Sendable, CaseIterable {
    case success = 0
    /// A check failed or an unexpected error (`build --check` found stale outputs, an encoder failed).
    case failure = 1
    /// Bad command-line arguments (EX_USAGE).
    case usage = 64
    /// A preset or manifest that is present but wrong (EX_DATAERR).
    case dataError = 65
    /// An input that is missing or unreadable (EX_NOINPUT).
    case noInput = 66
    /// The preview server cannot listen: its port is in use or may not be bound (EX_UNAVAILABLE).
    case unavailable = 69
    /// An output that cannot be written (EX_CANTCREAT).
    case cannotWrite = 73
}

extension ExitCode {
    /// What the code means, as the man page's EXIT STATUS and the README's table say it.
    public var meaning: String {
        switch self {
        case .success: return "Success (also --help and --version)."
        case .failure:
            return "build --check found missing or stale outputs; an output over its size budget; an encoder or other unexpected failure."
        case .usage: return "Bad command-line arguments (an unknown option or subcommand, a missing --output, ...)."
        case .dataError:
            return "A preset or manifest that is present but wrong (syntax, values, no seamless loop, a bad rider image or font)."
        case .noInput:
            return "An input that is missing or unreadable (no such file or bundled preset, a directory, too large, a missing font)."
        case .unavailable: return "preview --watch (serve) cannot listen on its port: the port is in use or may not be bound."
        case .cannotWrite:
            return "An output that cannot be written (a missing or read-only folder; for presets export, a file already there without --force)."
        }
    }
}

/// An error that carries its exit code and the lines to print on stderr.
public struct CommandError: Error {
    public var code: ExitCode
    public var lines: [String]
    /// Print the usage line and a help hint after the message (argument errors).
    public var showUsage = false
    /// The lines are document problems in the compiler form (`FILE:LINE:COLUMN: error: …`) and are
    /// printed as they are; other lines get an `Error: ` prefix.
    public var located = false

    public init(_ code: ExitCode, _ lines: [String], showUsage: Bool = false, located: Bool = false) {
        self.code = code
        self.lines = lines
        self.showUsage = showUsage
        self.located = located
    }

    /// A preset's or manifest's problems: exit 66 when an input is missing, else 65.
    public init(_ error: DocumentError) {
        self.init(error.isMissingInput ? .noInput : .dataError, error.lines, located: true)
    }

    public static func usage(_ message: String) -> CommandError { CommandError(.usage, [message], showUsage: true) }

    /// The lines as printed on stderr.
    public var printedLines: [String] { located ? lines : lines.map { "Error: " + $0 } }
}
