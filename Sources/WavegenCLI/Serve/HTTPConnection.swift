import Foundation

/// One accepted connection; closed when the value goes away.
final class HTTPConnection: @unchecked Sendable {
    let fd: Int32

    init(fd: Int32) {
        self.fd = fd
        var limit = timeval(tv_sec: HTTPServer.timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Reads until a whole request head has arrived, the head is refused, the client stops
    /// sending (`.incomplete`) or the timeout passes.
    func readRequest() -> HTTPRequestParser.Outcome {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(TimeInterval(HTTPServer.timeout))
        while Date() < deadline {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return .incomplete }
            received += chunk[..<n]
            let outcome = HTTPRequestParser.parse(received)
            if outcome != .incomplete { return outcome }
        }
        return .incomplete
    }

    /// Sends all of `bytes`; false when the client has gone or stopped reading.
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
    }
}
