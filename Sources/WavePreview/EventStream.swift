import WavePlatform
import WaveBuild

/// Server-sent events (`text/event-stream`): every open stream is sent the current state at once
/// (event `state`), then each newer one as it is published (event `change`). Every event carries
/// the whole state, so a slow client skips straight to the newest and nothing queues up.
public final class EventStream: @unchecked Sendable {
    private let condition = Condition()
    private var sequence = 0
    private var data: String
    private var stopped = false

    /// Seconds between comment lines sent to an idle stream, which find clients that have gone.
    public static let heartbeat: Double = 5

    /// The head of every stream's response.
    public static let responseHead = HTTPResponse(.ok, contentType: "text/event-stream; charset=utf-8", body: [],
                                           headers: [("Cache-Control", "no-store")]).head(streaming: true)

    public init(initial data: String) { self.data = data }

    /// Makes `data` (one event's payload) the current state and wakes every stream.
    public func publish(_ data: String) {
        condition.withLock {
            self.data = data
            sequence += 1
            condition.broadcast()
        }
    }

    /// The current state.
    public var current: String { condition.withLock { data } }

    /// Ends every stream.
    public func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }

    /// Serves one client until it goes away or the stream stops.
    public func serve(_ connection: HTTPConnection) {
        var (seen, text) = condition.withLock { (sequence, data) }
        guard connection.send(EventStream.responseHead + Array(("retry: 1000\n" + EventStream.message(event: "state", data: text)).utf8)) else { return }
        while true {
            var next: (Int, String)?
            let ended: Bool = condition.withLock {
                let deadline = Clock.wallSeconds + EventStream.heartbeat
                while !stopped, sequence == seen, condition.wait(until: deadline) {}
                if sequence != seen { next = (sequence, data) }
                return stopped
            }
            if ended { return }
            let chunk: String
            if let next {
                (seen, text) = next
                chunk = EventStream.message(event: "change", data: text)
            } else {
                chunk = ": still here\n\n"
            }
            guard connection.send(Array(chunk.utf8)) else { return }
        }
    }

    /// One event in the wire format: its name, each line of `data` as a `data:` line, a blank line.
    public static func message(event: String, data: String) -> String {
        "event: \(event)\n" + data.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)\n" }.joined() + "\n"
    }
}
