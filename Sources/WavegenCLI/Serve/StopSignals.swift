import Foundation

/// SIGINT, SIGTERM and SIGHUP turned into a readable pipe, so the server's accept loop can stop
/// and return instead of dying where it stands. The handler makes one async-signal-safe call.
enum StopSignals {
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Installs the handlers; returns the pipe's read end, readable once a signal has come.
    /// SIGPIPE is ignored: a client or a stdout reader that goes away is a failed write, not the
    /// end of the server (`wavegen serve | head -1` keeps serving).
    static func install() -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return -1 }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        writeEnd = ends[1]
        for s in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in
                var byte: UInt8 = 1
                _ = write(StopSignals.writeEnd, &byte, 1)
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(s, &action, nil)
        }
        return ends[0]
    }
}
