import WavePlatform
import WaveKit
import WaveRender

/// Collects a build's changes to wavegen.lock and merges them into the lock on disk, under the
/// lock's `flock` (`BuildLock.update`), at most about once a second while outputs finish and once
/// at the end: an interrupted build keeps the record of what it wrote, and two builds of one
/// manifest at once keep each other's entries.
public final class LockRecorder {
    public enum Change {
        case set(BuildLock.Entry)
        case remove
        case keep
    }

    public let path: String
    public let manifest: String
    public let enabled: Bool
    /// What wrote the lock (`wavegen 0.1.0 (abc1234)`), recorded in it.
    public let generator: String
    private var pending: [String: Change] = [:]
    private var lastFlush = Clock.monotonicSeconds
    /// How long finished outputs may wait to be recorded.
    public static let interval: Double = 1

    public init(path: String, manifest: String, enabled: Bool, generator: String) {
        self.path = path
        self.manifest = manifest
        self.enabled = enabled
        self.generator = generator
    }

    public func record(_ key: String, _ change: Change) {
        guard enabled else { return }
        if case .keep = change { return }
        pending[key] = change
    }

    public func flushIfDue() throws(WaveError) {
        if Clock.monotonicSeconds - lastFlush >= LockRecorder.interval { try flush() }
    }

    /// Merges the pending changes into the lock on disk.
    public func flush() throws(WaveError) {
        lastFlush = Clock.monotonicSeconds
        guard enabled, !pending.isEmpty else { return }
        let changes = pending
        pending = [:]
        try BuildLock.update(path, lockingFile: manifest, generator: generator,
                             write: { (text: String) throws(WaveError) in try AtomicFile.write(Array(text.utf8), to: path, ownFile: true) }) { lock in
            for (key, change) in changes {
                switch change {
                case let .set(entry): lock.entries[key] = entry
                case .remove: lock.entries[key] = nil
                case .keep: break
                }
            }
        }
    }
}
