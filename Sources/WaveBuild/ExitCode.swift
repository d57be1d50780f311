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

extension WaveError.Kind {
    /// The exit code for this kind of failure: the one place a kind becomes a process exit status.
    public var exitCode: ExitCode {
        switch self {
        case .missingInput: return .noInput
        case .invalidInput: return .dataError
        case .cannotWrite: return .cannotWrite
        case .overBudget, .failure: return .failure
        case .usage, .conflictingArguments: return .usage
        case .unavailable: return .unavailable
        }
    }
}

extension WaveError {
    public var exitCode: ExitCode { kind.exitCode }
}
