import WavePlatform

/// The one-line progress display on a terminal's stderr: `[3/12] out/orb@2x.webp, out/orb.gif`
/// (the count finished, then every output being rendered now), rewritten in place and cleared at
/// the end. Does nothing when disabled.
public final class ProgressLine: OutputProgress, @unchecked Sendable {
    /// Writes text (escaped for the terminal) and control sequences of its own (as they are) to stderr.
    private let text: @Sendable (String) -> Void
    private let control: @Sendable (String) -> Void
    private let enabled: Bool
    private var total: Int
    private let lock = Lock()
    private var done = 0
    private var inFlight: [String] = []
    private var current: String?

    public init(text: @escaping @Sendable (String) -> Void, control: @escaping @Sendable (String) -> Void, enabled: Bool, total: Int = 0) {
        self.text = text
        self.control = control
        self.enabled = enabled
        self.total = total
    }

    public static let clearLine = "\r\u{1B}[K"

    public func begin(total: Int) { lock.withLock { self.total = total } }

    public func started(_ path: String) {
        guard enabled else { return }
        lock.withLock {
            inFlight.append(path)
            show()
        }
    }

    public func finished(_ path: String) {
        guard enabled else { return }
        lock.withLock {
            if let i = inFlight.firstIndex(of: path) { inFlight.remove(at: i) }
            done += 1
            show()
        }
    }

    /// The line for the current state; called with the lock held.
    private func show() {
        current = "[\(done)/\(total)] " + (inFlight.isEmpty ? "" : inFlight.joined(separator: ", "))
        control(ProgressLine.clearLine)
        text(current!)
    }

    /// Takes the line away so that other output starts at the left margin.
    public func clear() {
        guard enabled else { return }
        lock.withLock { if current != nil { control(ProgressLine.clearLine) } }
    }

    public func redraw() {
        guard enabled else { return }
        lock.withLock { if let current { text(current) } }
    }

    public func finish() {
        guard enabled else { return }
        lock.withLock {
            if current != nil { control(ProgressLine.clearLine) }
            current = nil
        }
    }
}
