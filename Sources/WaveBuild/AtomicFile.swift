import Foundation
import WaveKit
import WavePlatform
import WaveRender

/// Writes files so that a reader never sees half of one: bytes go to a temporary file beside the
/// target, which is renamed over it only when complete. Temporary files are removed on error and
/// on SIGINT/SIGTERM.
public enum AtomicFile {
    /// Writes `bytes` to `path`; an existing file stays untouched unless the write succeeds. A
    /// file the command reads (`ProtectedFiles`) is refused unless `ownFile` (the build's lock).
    public static func write(_ bytes: [UInt8], to path: String, ownFile: Bool = false) throws(CommandError) {
        if !ownFile { try ProtectedFiles.checkOutput(path) }
        let dir = folder(of: path)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
            throw CommandError(.cannotWrite, ["\(path): cannot write: folder \(dir) does not exist"])
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
            throw CommandError(.cannotWrite, ["\(path): cannot write: is a directory"])
        }
        let temp = PathText.joined(dir, temporaryName(for: PathText.lastComponent(of: path)))
        // Registered before it exists, so an interrupt at any moment removes it.
        TemporaryFiles.register(temp)
        defer { TemporaryFiles.unregister(temp) }
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw CommandError(.cannotWrite, ["\(path): cannot write: \(String(cString: strerror(errno)))"])
        }
        var failure: String?
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += n
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        if close(fd) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil, rename(temp, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temp)
            throw CommandError(.cannotWrite, ["\(path): cannot write: \(failure)"])
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
        return "." + visible + ".wavegen-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
    }

    /// The absolute folder `path` is written into (a relative path is taken from the current folder),
    /// as errors name it.
    public static func folder(of path: String) -> String {
        PathText.folder(of: PathText.joined(FileManager.default.currentDirectoryPath, path))
    }

    /// Checks up front that `path` could be written, so a long render does not end in a write error.
    public static func checkWritable(_ path: String) throws(CommandError) {
        try ProtectedFiles.checkOutput(path)
        let dir = folder(of: path)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) else {
            throw CommandError(.cannotWrite, ["\(path): cannot write: folder \(dir) does not exist"])
        }
        guard isDir.boolValue else { throw CommandError(.cannotWrite, ["\(path): cannot write: \(dir) is not a folder"]) }
        // Permission bits do not bind root and say nothing of special file systems: try a file.
        let probe = PathText.joined(dir, ".wavegen-probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp")
        TemporaryFiles.register(probe)
        defer { TemporaryFiles.unregister(probe) }
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw CommandError(.cannotWrite, ["\(path): cannot write: folder \(dir) is not writable"])
        }
        close(fd)
        unlink(probe)
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
            throw CommandError(.cannotWrite, ["\(path): cannot write: is a directory"])
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
    private static let lock = NSLock()
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        table.initialize(repeating: nil, count: capacity)
        return table
    }()
    nonisolated(unsafe) private static var installed = false

    public static func register(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        if let free = (0..<capacity).first(where: { slots[$0] == nil }) { slots[free] = strdup(path) }
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
            guard let p = slots[i], strcmp(p, path) == 0 else { continue }
            slots[i] = nil
            free(p)
            return
        }
    }

    /// Unlinks every registered path; async-signal-safe.
    public static func removeAll() {
        var i = 0
        while i < capacity {
            if let p = slots[i] { unlink(p) }
            i += 1
        }
    }
}
