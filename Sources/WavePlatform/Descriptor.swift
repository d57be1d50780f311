#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// File descriptor flags, pipes and waiting for input, the same on every POSIX system.
public enum Descriptor {
    /// Sets `FD_CLOEXEC`, so the descriptor is not inherited by programs this process runs.
    public static func setCloseOnExec(_ fd: Int32) {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    /// Sets `O_NONBLOCK` (replacing the other status flags, as the callers expect of a new pipe).
    public static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, O_NONBLOCK)
    }

    /// Closes `fd` (`close`).
    public static func close(_ fd: Int32) {
        _ = platformClose(fd)
    }

    /// Writes one byte to `fd` (`write`); async-signal-safe, for a signal handler.
    public static func writeByte(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }

    /// Whether the last failed call was interrupted by a signal (`errno` is `EINTR`): try it again.
    public static var lastCallInterrupted: Bool { errno == EINTR }

    /// Whether the last failed call was interrupted or would have blocked (`EINTR`, `EAGAIN`).
    public static var lastCallMayBeRetried: Bool { errno == EINTR || errno == EAGAIN }

    /// A new pipe, both ends close-on-exec; nil when none can be made.
    public static func pipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        guard platformPipe(&ends) == 0 else { return nil }
        for end in ends { setCloseOnExec(end) }
        return (ends[0], ends[1])
    }

    /// What `poll` answered.
    public enum Readiness: Equatable, Sendable {
        /// The returned events (`revents`) of each descriptor, in order; some are not 0.
        case ready([Int16])
        case timedOut
        /// A signal came first (EINTR).
        case interrupted
        /// Another error, with its `errno`.
        case failed(Int32)
    }

    /// The `POLLIN` bit of a descriptor's returned events.
    public static let readable = Int16(POLLIN)

    /// Waits until one of `fds` has input, or an error or hang-up, for at most `milliseconds`
    /// (-1: without limit).
    public static func waitForInput(_ fds: [Int32], milliseconds: Int32) -> Readiness {
        var polled = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let r = poll(&polled, nfds_t(polled.count), milliseconds)
        if r < 0 { return errno == EINTR ? .interrupted : .failed(errno) }
        if r == 0 { return .timedOut }
        return .ready(polled.map(\.revents))
    }
}

private func platformPipe(_ ends: UnsafeMutablePointer<Int32>) -> Int32 { pipe(ends) }

/// `close` under another name, as `Descriptor.close` shadows it.
private func platformClose(_ fd: Int32) -> Int32 { close(fd) }

extension Descriptor {
    /// Writes all of `bytes` to `fd`, retrying after signals; nil when done, else the `errno` of the
    /// failed `write`.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return nil
    }

    /// Writes all of `bytes` to `fd`; nil when done, else the `errno`.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        bytes.withUnsafeBytes { writeAll(fd, $0) }
    }

    /// Flushes `fd`'s data to the disk (`fsync`); nil when done, else the `errno`.
    public static func synchronize(_ fd: Int32) -> Int32? {
        fsync(fd) == 0 ? nil : errno
    }

    /// Closes `fd`; nil when done, else the `errno`.
    public static func closeReporting(_ fd: Int32) -> Int32? {
        platformClose(fd) == 0 ? nil : errno
    }

    /// Whether `fd` is a terminal (`isatty`).
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) != 0 }
}
