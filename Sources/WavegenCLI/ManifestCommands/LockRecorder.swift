import Foundation
import WaveRender

/// Collects a build's changes to wavegen.lock and merges them into the lock on disk, under the
/// lock's `flock` (`BuildLock.update`), at most about once a second while outputs finish and once
/// at the end: an interrupted build keeps the record of what it wrote, and two builds of one
/// manifest at once keep each other's entries.
final class LockRecorder {
    enum Change {
        case set(BuildLock.Entry)
        case remove
        case keep
    }

    let path: String
    let manifest: String
    let enabled: Bool
    private var pending: [String: Change] = [:]
    private var lastFlush = Date()
    /// How long finished outputs may wait to be recorded.
    static let interval: TimeInterval = 1

    init(path: String, manifest: String, enabled: Bool) {
        self.path = path
        self.manifest = manifest
        self.enabled = enabled
    }

    func record(_ key: String, _ change: Change) {
        guard enabled else { return }
        if case .keep = change { return }
        pending[key] = change
    }

    func flushIfDue() throws(CommandError) {
        if Date().timeIntervalSince(lastFlush) >= LockRecorder.interval { try flush() }
    }

    /// Merges the pending changes into the lock on disk.
    func flush() throws(CommandError) {
        lastFlush = Date()
        guard enabled, !pending.isEmpty else { return }
        let changes = pending
        pending = [:]
        try BuildLock.update(path, lockingFile: manifest, generator: "wavegen \(Wavegen.versionDescription)",
                             write: { (text: String) throws(CommandError) in try AtomicFile.write(Array(text.utf8), to: path, ownFile: true) }) { lock in
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
