import WavePlatform
import WaveKit
import WaveRender

/// Files wavegen wrote for a manifest that no job plans any more. Only the lock knows what wavegen
/// wrote, so an orphan is always a lock entry: a path the lock records, that no output of the whole
/// manifest has, and that is still on disk. A file the lock does not record is never an orphan,
/// whatever its name (a template such as `{variant}.{format}` matches the manifest itself).
public enum Orphans {
    public struct Orphan {
        /// The lock's key (relative to the manifest's folder).
        public var key: String
        /// The path as outputs are shown.
        public var path: String
        public var entry: BuildLock.Entry
    }

    /// The orphans among `lock`'s entries. `planned` holds the lock keys of every output of the
    /// whole manifest. Only entries this manifest (file name `owner`) wrote count: manifests in
    /// one folder share the lock, and entries from before jobs were recorded belong to no one.
    /// Building some jobs only (`selected`), an entry is this build's to report when one of them
    /// wrote it, or a job the manifest no longer has.
    public static func find(lock: BuildLock?, planned: Set<String>, selected: Set<String>?, jobs: Set<String>, manifest: BuildManifest,
                     owner: String) -> [Orphan] {
        guard let lock else { return [] }
        var found: [Orphan] = []
        for (key, entry) in lock.entries where !planned.contains(key) && entry.isOwned(by: owner) {
            if let selected, let job = entry.job, !(selected.contains(job) || !jobs.contains(job)) { continue }
            let path = BuildManifest.resolve(key, in: manifest.directory)
            guard FileSystem.kindOfEntry(path) != nil else { continue }
            found.append(Orphan(key: key, path: path, entry: entry))
        }
        return found.sorted { $0.path.unicodeScalars.lexicographicallyPrecedes($1.path.unicodeScalars) }
    }

    /// The keys of the lock's entries whose files are gone and that no output plans: nothing is
    /// left to prune, so the lock forgets them.
    public static func vanished(lock: BuildLock?, planned: Set<String>, manifest: BuildManifest) -> [String] {
        guard let lock else { return [] }
        return lock.entries.keys.filter { key in
            !planned.contains(key) && FileSystem.kindOfEntry(BuildManifest.resolve(key, in: manifest.directory)) == nil
        }
    }

    /// Why `orphan` must not be deleted, or nil when it may: only a regular file that holds the
    /// bytes wavegen wrote, inside the manifest's folder (links resolved, unless `allowOutside`),
    /// and that is none of the build's inputs.
    public static func keepReason(_ orphan: Orphan, root: String, allowOutside: Bool) -> String? {
        guard let kind = FileSystem.kindOfEntry(orphan.path) else { return "it is gone" }
        guard kind == .regularFile else { return "it is not a regular file (a link or a folder) wavegen wrote" }
        if !allowOutside, !OnDisk.isInside(OnDisk.landingPath(orphan.path), folder: root) {
            return "it is outside the manifest's folder"
        }
        if let role = ProtectedFiles.role(of: orphan.path) { return "it is \(role), which this build reads" }
        guard let data = FileSystem.contents(of: orphan.path) else { return "it cannot be read" }
        guard OutputDigest.file(data) == orphan.entry.file else {
            return "its bytes are not those wavegen wrote (changed by hand?); delete it yourself if it is no longer wanted"
        }
        return nil
    }
}
