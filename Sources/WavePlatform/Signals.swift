#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Signal handlers and masks. The handler field of `struct sigaction` has a different name on each
/// C library (`__sigaction_handler.sa_handler` in glibc, `__sigaction_u.__sa_handler` on Darwin,
/// `__sa_handler.sa_handler` in musl); only this file knows them.
public enum Signals {
    /// A signal handler: a C function of the signal number. It may call async-signal-safe
    /// functions only.
    public typealias Handler = @convention(c) (Int32) -> Void

    public static let interrupt = SIGINT
    public static let terminate = SIGTERM
    public static let hangUp = SIGHUP
    public static let brokenPipe = SIGPIPE

    /// The signals that stop wavegen: SIGINT, SIGTERM and SIGHUP.
    public static let stopping: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Installs `handler` for each of `signals` with `sigaction`: interrupted system calls are
    /// restarted (`SA_RESTART`) and the signal is blocked while its handler runs, as `signal`
    /// does on glibc and Darwin.
    public static func install(handler: Handler, for signals: [Int32]) {
        for s in signals {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = handler
            #elseif canImport(Darwin)
            action.__sigaction_u.__sa_handler = handler
            #elseif canImport(Musl)
            action.__sa_handler.sa_handler = handler
            #endif
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(s, &action, nil)
        }
    }

    /// Ignores `number` (`SIG_IGN`).
    public static func ignore(_ number: Int32) {
        _ = signal(number, SIG_IGN)
    }

    /// Gives `number` its default action back (`SIG_DFL`). Async-signal-safe.
    public static func restoreDefault(_ number: Int32) {
        _ = signal(number, SIG_DFL)
    }

    /// Sends `number` to this process (`raise`). Async-signal-safe.
    public static func raise(_ number: Int32) {
        _ = platformRaise(number)
    }

    /// Unblocks `signals` for the calling thread and the threads it starts (`sigprocmask`).
    public static func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }
}

private func platformRaise(_ s: Int32) -> Int32 { raise(s) }
