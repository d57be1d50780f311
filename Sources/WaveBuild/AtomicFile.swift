import WaveKit
import WavePlatform
import WaveRender

/// Writes files so that a reader never sees half of one: bytes go to a temporary file beside the
/// target, which is renamed over it only when complete. Temporary files are removed on error and
/// on SIGINT/SIGTERM.
public enum AtomicFile {
    /// Writes `bytes` to `path`; an existing file stays untouched unless the write succeeds. A
    /// file the command reads (`ProtectedFiles`) is refused unless `ownFile` (the build's lock).
    /// A failure's message starts with the path unless not `naming` (a build names it itself).
    public static func write(_ bytes: [UInt8], to path: String, ownFile: Bool = false, naming: Bool = true) throws(WaveError) {
        let cannot = { (reason: String) in ProtectedFiles.cannotWrite(path, reason, naming: naming) }
        if !ownFile { try ProtectedFiles.checkOutput(path, naming: naming) }
        let dir = folder(of: path)
        guard FileSystem.isDirectory(dir) else {
            throw cannot("folder \(dir) does not exist")
        }
        if FileSystem.isDirectory(path) {
            throw cannot("is a directory")
        }
        let temp = PathText.joined(dir, temporaryName(for: PathText.lastComponent(of: path)))
        // Registered before it exists, so an interrupt at any moment removes it.
        TemporaryFiles.register(temp)
        defer { TemporaryFiles.unregister(temp) }
        let fd: Int32
        do {
            fd = try FileSystem.createNew(temp)
        } catch {
            throw cannot(error.reason)
        }
        var failure = Descriptor.writeAll(fd, bytes)
        if failure == nil { failure = Descriptor.synchronize(fd) }
        if let closing = Descriptor.closeReporting(fd), failure == nil { failure = closing }
        if failure == nil {
            do { try FileSystem.rename(temp, to: path) } catch { failure = error.code }
        }
        if let failure {
            try? FileSystem.remove(temp)
            throw cannot(errorText(failure))
        }
    }

    /// The most bytes of the target's name a temporary name shows.
    public static let visibleNameBytes = 200

    /// A temporary name for a file named `name`: `.NAME.wavegen-PID-RANDOM.tmp`, hidden and ending
    /// in `.tmp` so that cleanup and people recognise it. NAME is cut to `visibleNameBytes` bytes
    /// (at a character boundary), so the whole stays within NAME_MAX (255 bytes) for any name that
    /// fits there itself: the rest is at most 1 + 9 + 10 + 1 + 10 + 4 = 35 bytes.
    public static func temporaryName(for name: String) -> String {
        var visible = Substring(name)
        while visible.utf8.count > visibleNameBytes { visible = visible.dropLast() }
        return "." + visible + ".wavegen-\(ProcessEnvironment.id)-\(UInt32.random(in: 0...UInt32.max)).tmp"
    }

    /// The absolute folder `path` is written into (a relative path is taken from the current folder),
    /// as errors name it.
    public static func folder(of path: String) -> String {
        PathText.folder(of: PathText.joined(FileSystem.currentDirectory, path))
    }

    /// Checks up front that `path` could be written, so a long render does not end in a write error.
    public static func checkWritable(_ path: String, naming: Bool = true) throws(WaveError) {
        let cannot = { (reason: String) in ProtectedFiles.cannotWrite(path, reason, naming: naming) }
        try ProtectedFiles.checkOutput(path, naming: naming)
        let dir = folder(of: path)
        guard let dirKind = FileSystem.kind(of: dir) else {
            throw cannot("folder \(dir) does not exist")
        }
        guard dirKind == .directory else { throw cannot("\(dir) is not a folder") }
        // Permission bits do not bind root and say nothing of special file systems: try a file.
        let probe = PathText.joined(dir, ".wavegen-probe-\(ProcessEnvironment.id)-\(UInt32.random(in: 0...UInt32.max)).tmp")
        TemporaryFiles.register(probe)
        defer { TemporaryFiles.unregister(probe) }
        guard let fd = try? FileSystem.createNew(probe) else {
            throw cannot("folder \(dir) is not writable")
        }
        Descriptor.close(fd)
        try? FileSystem.remove(probe)
        if FileSystem.isDirectory(path) {
            throw cannot("is a directory")
        }
    }
}

/// Temporary files in flight, removed if the process is interrupted.
///
/// The signal handler may only make async-signal-safe calls, so the paths live in a fixed table of
/// C strings allocated once: the handler walks raw pointers and calls `unlink`, touching no Swift
/// array, string or reference count. A slot is cleared before its string is freed, so the handler
/// never follows a freed pointer.
public enum TemporaryFiles {
    /// The most temporary files in flight at once (one per output being written, plus probes).
    public static let capacity = 256
    private static let lock = Lock()
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        table.initialize(repeating: nil, count: capacity)
        return table
    }()
    nonisolated(unsafe) private static var installed = false

    public static func register(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        if let free = (0..<capacity).first(where: { slots[$0] == nil }) { slots[free] = CString.duplicate(path) }
        if !installed {
            installed = true
            Signals.install(handler: { sig in
                TemporaryFiles.removeAll()
                Signals.restoreDefault(sig)
                Signals.raise(sig)
            }, for: Signals.stopping)
        }
    }

    public static func unregister(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        for i in 0..<capacity {
            guard let p = slots[i], CString.equals(p, path) else { continue }
            slots[i] = nil
            CMemory.release(p)
            return
        }
    }

    /// Unlinks every registered path; async-signal-safe.
    public static func removeAll() {
        var i = 0
        while i < capacity {
            if let p = slots[i] { CString.unlinkFile(p) }
            i += 1
        }
    }
}
