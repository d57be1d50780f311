import WaveBuild
import WavePlatform

/// One accepted connection; closed when the value goes away, after `finish`.
public final class HTTPConnection: @unchecked Sendable {
    public let fd: Int32

    /// The most bytes `finish` reads and drops from a client before closing anyway.
    public static let lingerBytes = 64 * 1024
    /// The most seconds `finish` waits for a client to stop sending.
    public static let lingerTime: Double = 1

    public init(fd: Int32) {
        self.fd = fd
        Socket.setTimeouts(fd, seconds: HTTPServer.timeout)
    }

    deinit { Descriptor.close(fd) }

    /// Reads until a whole request head has arrived, the head is refused, the client stops
    /// sending (`.incomplete`) or the timeout passes.
    public func readRequest() -> HTTPRequestParser.Outcome {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let deadline = Clock.monotonicSeconds + Double(HTTPServer.timeout)
        while Clock.monotonicSeconds < deadline {
            let n = chunk.withUnsafeMutableBytes { Socket.receive(fd, into: $0) }
            if n < 0, Descriptor.lastCallInterrupted { continue }
            guard n > 0 else { return .incomplete }
            received += chunk[..<n]
            let outcome = HTTPRequestParser.parse(received)
            if outcome != .incomplete { return outcome }
        }
        return .incomplete
    }

    /// Ends the answer so the client can read all of it: the write side is shut down (the client
    /// reads the end of the stream), then what the client still sends (the rest of a head over the
    /// limit, a refused body, a request the answer did not wait for) is read and dropped until it
    /// closes its side, waiting at most `within` seconds (0: only what has already arrived) and
    /// dropping at most `lingerBytes`. Closing with bytes unread would make the kernel send a reset
    /// instead of the end of the stream, and a reset can destroy the answer before the client has
    /// read it.
    public func finish(within seconds: Double = HTTPConnection.lingerTime) {
        Socket.shutdownWrite(fd)
        var chunk = [UInt8](repeating: 0, count: 4096)
        var dropped = 0
        let deadline = Clock.monotonicSeconds + seconds
        while dropped < HTTPConnection.lingerBytes {
            let wait = Int32(max(0, ((deadline - Clock.monotonicSeconds) * 1000).rounded(.up)))
            switch Descriptor.waitForInput([fd], milliseconds: wait) {
            case .ready: break
            case .interrupted: continue
            case .timedOut, .failed: return
            }
            let n = chunk.withUnsafeMutableBytes { Socket.receive(fd, into: $0, dontWait: true) }
            if n < 0, Descriptor.lastCallMayBeRetried { continue }
            guard n > 0 else { return }
            dropped += n
        }
    }

    /// Sends all of `bytes`; false when the client has gone or stopped reading.
    public func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Socket.send(fd, raw.baseAddress! + offset, raw.count - offset, noSignal: true)
                if n < 0, Descriptor.lastCallInterrupted { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
    }
}
