import WaveBuild
import WavePlatform

/// SIGINT, SIGTERM and SIGHUP turned into a readable pipe, so the server's accept loop can stop
/// and return instead of dying where it stands. The handler makes one async-signal-safe call.
public enum StopSignals {
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Installs the handlers; returns the pipe's read end, readable once a signal has come.
    /// SIGPIPE is ignored: a client or a stdout reader that goes away is a failed write, not the
    /// end of the server (`wavegen serve | head -1` keeps serving).
    public static func install() -> Int32 {
        Signals.ignore(Signals.brokenPipe)
        guard let ends = Descriptor.pipe() else { return -1 }
        Descriptor.setNonBlocking(ends.write)
        writeEnd = ends.write
        Signals.install(handler: { _ in
            Descriptor.writeByte(StopSignals.writeEnd)
        }, for: Signals.stopping)
        return ends.read
    }
}
