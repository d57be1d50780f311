import WavePlatform
import WaveKit
import WaveRender

/// The files a command reads (its preset and the preset's parents, rider image and font; a build's
/// manifest and lock): no write or delete of this process may land on one, under any name or link.
/// `AtomicFile` and pruning consult it, so a command that forgets to check cannot destroy its input
/// (`render p.json -o p.json` would replace the preset with a Lottie document).
public enum ProtectedFiles {
    private static let lock = Lock()
    /// Role and path by identity. A process may run many commands (the tests do, side by side), so
    /// entries are never cleared; a match counts only while the protected path still has that
    /// identity, so a deleted input's inode, reused by a new file, protects nothing.
    nonisolated(unsafe) private static var files: [OnDisk.Identity: (role: String, path: String)] = [:]

    /// Protects every file of `paths` that exists; `role` says what it is ("the preset").
    public static func protect(_ paths: [String], as role: String) {
        lock.withLock {
            for path in paths {
                guard let id = OnDisk.identity(path) else { continue }
                files[id] = (role, path)
            }
        }
    }

    /// What `path` is, when it names a protected file.
    public static func role(of path: String) -> String? {
        guard let id = OnDisk.identity(path) else { return nil }
        guard let entry = lock.withLock({ files[id] }), OnDisk.identity(entry.path) == id else { return nil }
        return entry.role
    }

    /// Refuses `path` when it names a protected file or is no name wavegen may write; the message
    /// starts with the path unless not `naming`.
    public static func checkOutput(_ path: String, naming: Bool = true) throws(WaveError) {
        if let problem = OnDisk.nameProblem(path) {
            throw cannotWrite(TerminalText.escaped(path), "the path \(problem)", naming: naming)
        }
        if let role = role(of: path) {
            throw cannotWrite(path, "it is \(role), which this command reads; name another output", naming: naming)
        }
    }

    /// `PATH: cannot write: REASON`, without `PATH: ` unless `naming`.
    static func cannotWrite(_ path: String, _ reason: String, naming: Bool) -> WaveError {
        WaveError(.cannotWrite, [(naming ? "\(path): " : "") + "cannot write: " + reason])
    }

    /// Protects the files a preset reads (it, its parents, its rider image and font) from this
    /// command's writes.
    public static func protectInputs(of reference: String, overrides: [PresetOverride]) {
        let files = PresetLoader.standard.inputFiles(reference, overrides: overrides)
        for (i, file) in files.enumerated() {
            let name = file.lowercased()
            let role = name.hasSuffix(".json") ? (i == 0 ? "the preset" : "a preset it extends")
                : name.hasSuffix(".png") ? "the preset's rider image" : "the preset's label font"
            ProtectedFiles.protect([file], as: role)
        }
    }
}
