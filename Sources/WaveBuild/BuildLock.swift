import WavePlatform
import WaveKit

/// `wavegen.lock`, beside a manifest and meant to be committed: for every output (by its path
/// relative to the manifest's folder) the digest of its inputs (`OutputDigest.input`) and the
/// SHA-256 of the file written. A build renders only outputs whose input digest or file digest
/// differs; `build --check` compares without rendering.
///
/// The text is sorted by path with one output per line, so a change shows as a small diff.
public struct BuildLock: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        /// `OutputDigest.input` of the output when it was written.
        public var input: String
        /// SHA-256 of the file written.
        public var file: String
        /// The job that wrote it (by name), so that a build of some jobs knows which of the lock's
        /// files are its own; nil in locks written before jobs were recorded.
        public var job: String?
        /// The manifest's file name, when it is not `wavegen.json`: manifests in one folder share
        /// its lock, and one never calls another's files its orphans.
        public var manifest: String?
        /// Short digests of the input's parts (`OutputDigest.Part`), so that a stale output can
        /// say which input changed; empty in older locks.
        public var parts: [String: String]
        /// For an output fitted to its budget: the knobs the fit turned and their values
        /// (`SizeFit.Candidate.turned`, by `SizeFit.Knob` name; empty when the preset as it is
        /// fitted). A build of the same inputs whose file is missing tries that choice first and
        /// keeps it only when it makes the file `file` records; nil when not fitted or not known.
        public var fit: [String: Double]?

        public init(input: String, file: String, job: String? = nil, manifest: String? = nil, parts: [String: String] = [:],
                    fit: [String: Double]? = nil) {
            self.input = input
            self.file = file
            self.job = job
            self.manifest = manifest
            self.parts = parts
            self.fit = fit
        }

        /// Whether the manifest named `manifestName` (a file name) wrote this file. Entries from
        /// before jobs were recorded belong to no manifest: no build can tell whose they are.
        public func isOwned(by manifestName: String) -> Bool {
            job != nil && (manifest ?? BuildManifest.defaultFileName) == manifestName
        }
    }

    /// Entries by output path relative to the manifest's folder: every file wavegen wrote for the
    /// manifest and has not deleted, planned or not (a file no longer planned is an orphan, and
    /// only such files are ever pruned).
    public var entries: [String: Entry]
    /// Who wrote the lock ("wavegen 0.1.0"), for people reading it; never compared.
    public var generator: String

    public static let fileName = "wavegen.lock"
    /// The lock format this build reads and writes.
    public static let formatVersion = 1

    public init(entries: [String: Entry] = [:], generator: String = "") {
        self.entries = entries
        self.generator = generator
    }

    /// The lock's path for a manifest file: the same folder.
    public static func path(forManifest manifest: String) -> String {
        PathText.joined(PathText.folder(of: manifest), fileName)
    }

    /// What reading a lock found.
    public enum Reading: Sendable, Equatable {
        case missing
        /// Present but not usable (unreadable, not JSON, another format, an entry that is not two
        /// digests); the reason says which.
        case unusable(String)
        case lock(BuildLock)
    }

    public static func read(_ path: String) -> Reading {
        guard FileSystem.exists(path) else { return .missing }
        guard let data = FileSystem.contents(of: path) else { return .unusable("cannot be read") }
        let root: JSONNode
        do {
            root = try JSONParser.parse(data)
        } catch {
            return .unusable("line \(error.line), column \(error.column): \(error.message)")
        }
        guard case let .number(v)? = root["lockVersion"]?.value, v == Double(formatVersion) else {
            return .unusable("not a version \(formatVersion) lock (\"lockVersion\")")
        }
        guard case let .object(members)? = root["outputs"]?.value else { return .unusable("\"outputs\" is not an object") }
        var lock = BuildLock()
        if case let .string(g)? = root["generator"]?.value { lock.generator = g }
        for m in members {
            guard case let .string(input)? = m.value["input"]?.value, case let .string(file)? = m.value["file"]?.value,
                  isDigest(input), isDigest(file) else {
                return .unusable("the entry for \(m.key) is not {\"input\": SHA-256, \"file\": SHA-256}")
            }
            var entry = Entry(input: input, file: file)
            if case let .string(job)? = m.value["job"]?.value { entry.job = job }
            if case let .string(manifest)? = m.value["manifest"]?.value { entry.manifest = manifest }
            if case let .object(knobs)? = m.value["fit"]?.value {
                // Read only when every member is a number; anything else is not a record of a fit.
                var fit: [String: Double] = [:]
                for k in knobs { if case let .number(v) = k.value.value, v.isFinite { fit[k.key] = v } }
                if fit.count == knobs.count { entry.fit = fit }
            }
            if case let .object(parts)? = m.value["parts"]?.value {
                for p in parts { if case let .string(d) = p.value.value { entry.parts[p.key] = d } }
            }
            lock.entries[m.key] = entry
        }
        return .lock(lock)
    }

    public static func isDigest(_ s: String) -> Bool {
        s.utf8.count == 64 && s.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The lock's text: sorted by path, one output per line.
    public var text: String {
        var lines = ["{",
                     "  \"lockVersion\": \(BuildLock.formatVersion),",
                     "  \"generator\": \(JSONNode.string(generator).serialized()),",
                     "  \"outputs\": {"]
        let paths = entries.keys.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
        for (i, path) in paths.enumerated() {
            let e = entries[path]!
            var fields = "\"input\": \"\(e.input)\", \"file\": \"\(e.file)\""
            if let job = e.job { fields += ", \"job\": " + JSONNode.string(job).serialized() }
            if let manifest = e.manifest { fields += ", \"manifest\": " + JSONNode.string(manifest).serialized() }
            if !e.parts.isEmpty {
                let parts = e.parts.keys.sorted().map { JSONNode.string($0).serialized() + ": " + JSONNode.string(e.parts[$0]!).serialized() }
                fields += ", \"parts\": {" + parts.joined(separator: ", ") + "}"
            }
            if let fit = e.fit {
                let knobs = fit.keys.sorted().map { JSONNode.string($0).serialized() + ": " + JSONNode.number(fit[$0]!).serialized() }
                fields += ", \"fit\": {" + knobs.joined(separator: ", ") + "}"
            }
            lines.append("    \(JSONNode.string(path).serialized()): {\(fields)}" + (i < paths.count - 1 ? "," : ""))
        }
        lines += ["  }", "}"]
        return lines.joined(separator: "\n") + "\n"
    }
}

extension BuildLock {
    /// Reads the lock at `path`, lets `change` edit it and writes it back through `write` when it
    /// changed, all under an exclusive `flock` on the manifest file: two builds of one manifest
    /// at once (`--job A` beside `--job B`) each merge into what the other wrote instead of
    /// replacing it. A lock that is missing or unusable is started afresh. Returns the lock as
    /// written (or as found, when nothing changed).
    @discardableResult
    public static func update<E: Error>(_ path: String, lockingFile manifest: String, generator: String,
                                        write: (String) throws(E) -> Void, _ change: (inout BuildLock) -> Void) throws(E) -> BuildLock {
        let fd = FileSystem.lockExclusively(manifest)
        defer { if let fd { Descriptor.close(fd) } }
        let before: BuildLock?
        if case let .lock(l) = read(path) { before = l } else { before = nil }
        var lock = before ?? BuildLock()
        change(&lock)
        lock.generator = generator
        if lock.entries == before?.entries || (before == nil && lock.entries.isEmpty) { return lock }
        try write(lock.text)
        return lock
    }
}
