#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// TCP sockets on the loopback address, with the flags the preview server needs set the same way
/// on every system: close-on-exec on every descriptor, and no SIGPIPE from a write to a closed
/// connection (`MSG_NOSIGNAL` on Linux, `SO_NOSIGPIPE` on the socket on Darwin).
public enum Socket {
    /// Why `listen(port:)` failed: the step and its `errno`.
    public struct Failure: Error, Sendable {
        public enum Step: Sendable { case open, bind }
        public var step: Step
        public var code: Int32
        /// The port is taken by another listening socket.
        public var addressInUse: Bool { code == EADDRINUSE }
        public var text: String { errorText(code) }
    }

    /// A new IPv4 stream socket, close-on-exec and (on Darwin) without SIGPIPE; -1 on failure.
    public static func stream() -> Int32 {
        #if canImport(Glibc) || canImport(Musl)
        #if canImport(Glibc)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        let type = SOCK_STREAM | SOCK_CLOEXEC
        #endif
        return socket(AF_INET, type, 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        guard fd >= 0 else { return fd }
        Descriptor.setCloseOnExec(fd)
        setNoSignalPipe(fd)
        return fd
        #endif
    }

    /// A socket bound to 127.0.0.1:`port` (0: a free port the kernel picks) and listening, with
    /// `SO_REUSEADDR` so a restarted server takes its port while old connections linger in
    /// TIME_WAIT (a port another socket listens on still fails with EADDRINUSE).
    public static func listen(port: UInt16, backlog: Int32 = 64) -> Result<Int32, Failure> {
        let fd = stream()
        guard fd >= 0 else { return .failure(Failure(step: .open, code: errno)) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, port: port) == 0, platformListen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            return .failure(Failure(step: .bind, code: code))
        }
        return .success(fd)
    }

    /// Makes a bound `fd` listen; 0 or -1 with `errno`, as `listen`.
    public static func listen(_ fd: Int32, backlog: Int32) -> Int32 {
        platformListen(fd, backlog)
    }

    /// Binds `fd` to 127.0.0.1:`port`; 0 or -1 with `errno`, as `bind`.
    public static func bind(_ fd: Int32, port: UInt16) -> Int32 {
        withLoopbackAddress(port: port) { platformBind(fd, $0, $1) }
    }

    /// Connects `fd` to 127.0.0.1:`port`; 0 or -1 with `errno`, as `connect`.
    public static func connect(_ fd: Int32, port: UInt16) -> Int32 {
        withLoopbackAddress(port: port) { platformConnect(fd, $0, $1) }
    }

    /// The next connection on `listener`, close-on-exec and (on Darwin) without SIGPIPE; -1 on
    /// failure.
    public static func accept(_ listener: Int32) -> Int32 {
        let client = platformAccept(listener, nil, nil)
        guard client >= 0 else { return client }
        Descriptor.setCloseOnExec(client)
        setNoSignalPipe(client)
        return client
    }

    /// The port a bound IPv4 socket has.
    public static func boundPort(_ fd: Int32) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Sets the receive and send timeouts (`SO_RCVTIMEO`, `SO_SNDTIMEO`) to `seconds`.
    public static func setTimeouts(_ fd: Int32, seconds: Int) {
        var limit = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends up to `count` bytes from `bytes`; the count sent, or -1 with `errno`. With
    /// `noSignal`, a closed connection is an error (EPIPE) rather than SIGPIPE: `MSG_NOSIGNAL` on
    /// Linux; on Darwin the flag does not exist, and the sockets `stream()` and `accept(_:)` return
    /// carry `SO_NOSIGPIPE` instead.
    public static func send(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, noSignal: Bool = true) -> Int {
        #if canImport(Darwin)
        return platformSend(fd, bytes, count, 0)
        #else
        return platformSend(fd, bytes, count, noSignal ? Int32(MSG_NOSIGNAL) : 0)
        #endif
    }

    /// Receives up to `buffer.count` bytes; the count, 0 at the end of the stream, or -1 with
    /// `errno`. With `dontWait`, only what has already arrived (`MSG_DONTWAIT`).
    public static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, dontWait: Bool = false) -> Int {
        recv(fd, buffer.baseAddress, buffer.count, dontWait ? Int32(MSG_DONTWAIT) : 0)
    }

    /// Shuts down the sending side (`shutdown(SHUT_WR)`): the peer reads the end of the stream.
    public static func shutdownWrite(_ fd: Int32) {
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// Sets `SO_NOSIGPIPE` on Darwin, where `MSG_NOSIGNAL` does not exist; nothing elsewhere.
    public static func setNoSignalPipe(_ fd: Int32) {
        #if canImport(Darwin)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Calls `body` with the address 127.0.0.1:`port` and its length.
    static func withLoopbackAddress<R>(port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }
}

// The C functions under names the `Socket` members do not hide.
private func platformListen(_ fd: Int32, _ backlog: Int32) -> Int32 { listen(fd, backlog) }
private func platformBind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { bind(fd, address, length) }
private func platformConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { connect(fd, address, length) }
private func platformAccept(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: UnsafeMutablePointer<socklen_t>?) -> Int32 { accept(fd, address, length) }
private func platformSend(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int { send(fd, bytes, count, flags) }
