import Foundation
import Testing
import WavePlatform

/// One entry of Fixtures/hardening/cases.json: a bad input and the exact result it must give.
struct HardeningCase: Codable, Sendable, CustomTestStringConvertible {
    /// One step that prepares the case's folder before the run.
    struct Setup: Codable, Sendable {
        var fifo: String?
        var sparse: String?
        var bytes: Int?
        var symlink: String?
        var to: String?
        var mkdir: String?
        var immutable: String?
        var existing: String?
    }

    var name: String
    var args: [String]
    var setup: [Setup]?
    /// Run under `ulimit -f` (512-byte blocks) with SIGXFSZ ignored.
    var fileSizeLimitBlocks: Int?
    /// Run under `ulimit -v`, so that a refusal is shown to come before any large allocation.
    var memoryLimitMB: Int?
    /// Send stdout or stderr to this file (e.g. /dev/full) instead of capturing it.
    var stdoutTo: String?
    var stderrTo: String?
    var exit: Int32
    var stderr: [String]
    var stdout: [String]?

    var testDescription: String { name }

    /// The bytes a `setup` `existing` file starts with; they must survive the run.
    static let previousOutput = Array("previous output".utf8)
}

/// The corpus and how to run a case.
enum HardeningCorpus {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/hardening")
    static let manifest = folder.appendingPathComponent("cases.json")

    /// The case files: cases.json and any cases-TOPIC.json beside it, in name order.
    static var caseFiles: [URL] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter(isCaseFile)
        return names.sorted().map { folder.appendingPathComponent($0) }
    }

    static func isCaseFile(_ name: String) -> Bool { name == "cases.json" || (name.hasPrefix("cases-") && name.hasSuffix(".json")) }

    struct Document: Codable {
        var about: [String]
        var cases: [HardeningCase]
    }

    static func load() throws -> [HardeningCase] {
        try caseFiles.flatMap { try JSONDecoder().decode(Document.self, from: Data(contentsOf: $0)).cases }
    }

    static let all: [HardeningCase] = (try? load()) ?? []

    /// Per-run limits cannot be used under a sanitizer (ASan and TSan reserve terabytes of
    /// address space); scripts/sanitize sets this.
    static var underSanitizer: Bool { ProcessInfo.processInfo.environment["WAVEGEN_SANITIZER"] != nil }

    /// The longest a case may run.
    static let timeout: TimeInterval = 20

    /// Runs one case in a fresh copy of the fixtures and checks everything the manifest says.
    static func run(_ c: HardeningCase) throws {
        let scratch = try HardeningFolder()
        let root = scratch.url
        for entry in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !isCaseFile(entry) {
            try FileManager.default.copyItem(at: folder.appendingPathComponent(entry), to: root.appendingPathComponent(entry))
        }
        for step in c.setup ?? [] {
            if let p = step.fifo { #expect(mkfifo(root.appendingPathComponent(p).path, 0o644) == 0, "mkfifo \(p)") }
            if let p = step.sparse {
                let path = root.appendingPathComponent(p).path
                #expect(FileManager.default.createFile(atPath: path, contents: nil))
                #expect(truncate(path, off_t(step.bytes ?? 0)) == 0, "truncate \(p)")
            }
            if let p = step.symlink { try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent(p).path, withDestinationPath: step.to ?? "") }
            if let p = step.mkdir { try FileManager.default.createDirectory(at: root.appendingPathComponent(p), withIntermediateDirectories: true) }
            if let p = step.existing { try Data(HardeningCase.previousOutput).write(to: root.appendingPathComponent(p)) }
            if let p = step.immutable {
                // Root ignores permission bits, so "read-only" is the immutable attribute; where
                // chattr is missing or not allowed (no CAP_LINUX_IMMUTABLE, tmpfs) the case is skipped.
                guard chattr("+i", root.appendingPathComponent(p).path) else {
                    print("\(c.name): skipped, chattr +i is not available here")
                    return
                }
                scratch.immutable.append(root.appendingPathComponent(p).path)
            }
        }
        let before = try snapshot(root)
        let args = c.args.map { expand($0) }
        let r = try HardeningProcess.run(args, in: root, fileSizeLimitBlocks: c.fileSizeLimitBlocks,
                                         memoryLimitMB: underSanitizer ? nil : c.memoryLimitMB,
                                         stdoutTo: c.stdoutTo, stderrTo: c.stderrTo, timeout: timeout)
        let tmp = root.path
        let expectedErr = c.stderr.map { $0.replacingOccurrences(of: "{tmp}", with: tmp) }
        let expectedOut = (c.stdout ?? []).map { $0.replacingOccurrences(of: "{tmp}", with: tmp) }

        #expect(!r.timedOut, "\(c.name): still running after \(Int(timeout)) s; killed")
        #expect(r.signal == nil, "\(c.name): killed by signal \(r.signal ?? 0)\n\(r.err.prefix(2000))")
        #expect(r.status == c.exit, "\(c.name): exit status \(r.status), expected \(c.exit)\n\(r.err.prefix(2000))")
        if c.stderrTo == nil {
            #expect(r.errLines == expectedErr, "\(c.name): stderr differs")
        }
        if c.stdoutTo == nil {
            #expect(r.outLines == expectedOut, "\(c.name): stdout differs")
        }
        let after = try snapshot(root)
        #expect(after == before, "\(c.name): files changed: \(describeChange(before, after))")
        #expect(HardeningCorpus.strays(in: after.keys).isEmpty, "\(c.name): temporary files left: \(HardeningCorpus.strays(in: after.keys))")
        for step in c.setup ?? [] {
            if let p = step.existing {
                #expect(try Array(Data(contentsOf: root.appendingPathComponent(p))) == HardeningCase.previousOutput,
                        "\(c.name): \(p) was changed")
            }
        }
    }

    /// `{repeat:N:TEXT}` becomes TEXT written N times (long arguments without a long manifest).
    static func expand(_ arg: String) -> String {
        var result = arg
        while let start = result.range(of: "{repeat:") {
            guard let end = result[start.upperBound...].firstIndex(of: "}") else { break }
            let spec = result[start.upperBound..<end]
            guard let colon = spec.firstIndex(of: ":"), let n = Int(spec[..<colon]) else { break }
            result.replaceSubrange(start.lowerBound...end, with: String(repeating: String(spec[spec.index(after: colon)...]), count: n))
        }
        return result
    }

    /// Every path under `root` (hidden ones included) with its kind and size; symbolic links are
    /// not followed, so a sparse 2 GB file or a FIFO is never read.
    static func snapshot(_ root: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        func walk(_ relative: String) throws {
            let path = relative.isEmpty ? root.path : root.path + "/" + relative
            for name in try FileManager.default.contentsOfDirectory(atPath: path) {
                let child = relative.isEmpty ? name : relative + "/" + name
                var st = stat()
                guard lstat(root.path + "/" + child, &st) == 0 else { continue }
                switch st.st_mode & S_IFMT {
                case S_IFDIR:
                    result[child] = "folder"
                    try walk(child)
                case S_IFLNK: result[child] = "link"
                case S_IFIFO: result[child] = "fifo"
                default: result[child] = "file \(st.st_size) bytes"
                }
            }
        }
        try walk("")
        return result
    }

    static func strays(in paths: some Sequence<String>) -> [String] {
        paths.filter { let name = ($0 as NSString).lastPathComponent; return name.hasPrefix(".") && name.hasSuffix(".tmp") }.sorted()
    }

    static func describeChange(_ before: [String: String], _ after: [String: String]) -> String {
        var parts: [String] = []
        for (k, v) in after.sorted(by: { $0.key < $1.key }) where before[k] != v { parts.append(before[k] == nil ? "new \(k) (\(v))" : "changed \(k) (\(v))") }
        for k in before.keys.sorted() where after[k] == nil { parts.append("removed \(k)") }
        return parts.joined(separator: ", ")
    }

    /// Runs chattr; false when it is missing or refused.
    static func chattr(_ flag: String, _ path: String) -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        p.arguments = [flag, path]
        p.standardError = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }
}

/// A fresh temporary folder (real path, so it matches what the child process sees as its current
/// folder), removed afterwards even when parts of it were made immutable.
final class HardeningFolder {
    let url: URL
    var immutable: [String] = []

    init() throws {
        let base = URL(fileURLWithPath: FileManager.default.temporaryDirectory.path).resolvingSymlinksInPath()
        url = base.appendingPathComponent("wavegen-hardening-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        for p in immutable { _ = HardeningCorpus.chattr("-i", p) }
        try? FileManager.default.removeItem(at: url)
    }
}

/// The built `wavegen`, run as a child process with optional limits and a timeout.
///
/// It is started with posix_spawn rather than Foundation's Process, to give it an empty signal
/// mask and default signal actions: tests run on worker threads that block most signals, and a
/// child inherits the mask of the thread that spawns it (with Process, a SIGTERM sent to wavegen
/// would stay pending for ever).
enum HardeningProcess {
    struct Result {
        var status: Int32
        /// The signal that ended it, if one did.
        var signal: Int32?
        var timedOut: Bool
        var out: String
        var err: String

        var errLines: [String] { lines(err) }
        var outLines: [String] { lines(out) }

        private func lines(_ s: String) -> [String] {
            var l = s.components(separatedBy: "\n")
            if l.last == "" { l.removeLast() }
            return l
        }
    }

    /// A started run, for tests that signal it.
    final class Running {
        let pid: pid_t
        let outPath: String
        let errPath: String
        /// The wait status once reaped.
        private var status: Int32?

        init(pid: pid_t, outPath: String, errPath: String) {
            self.pid = pid
            self.outPath = outPath
            self.errPath = errPath
        }

        /// Reaps the process if it has ended, without blocking.
        private func poll() -> Bool {
            if status != nil { return true }
            var s: Int32 = 0
            let r = waitpid(pid, &s, WNOHANG)
            if r == pid { status = s; return true }
            if r < 0, errno != EINTR { status = 0; return true }
            return false
        }

        /// Whether it has ended (without waiting).
        var hasEnded: Bool { poll() }

        /// Waits up to `timeout`; kills the process when it is still running then.
        func wait(timeout: TimeInterval) -> Result {
            let deadline = Date().addingTimeInterval(timeout)
            var timedOut = false
            while !poll() {
                if Date() >= deadline {
                    timedOut = true
                    kill(pid, SIGKILL)
                    var s: Int32 = 0
                    while waitpid(pid, &s, 0) < 0, errno == EINTR {}
                    status = s
                    break
                }
                usleep(5_000)
            }
            let s = status ?? 0
            // (FileManager rather than String(contentsOfFile:), which leaks its buffer.)
            let out = FileManager.default.contents(atPath: outPath).map { String(decoding: $0, as: UTF8.self) } ?? ""
            let err = FileManager.default.contents(atPath: errPath).map { String(decoding: $0, as: UTF8.self) } ?? ""
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
            let termSignal = s & 0x7F
            if termSignal == 0 {
                return Result(status: (s >> 8) & 0xFF, signal: nil, timedOut: timedOut, out: out, err: err)
            }
            return Result(status: 128 + termSignal, signal: termSignal, timedOut: timedOut, out: out, err: err)
        }

        deinit {
            if !poll() {
                kill(pid, SIGKILL)
                var s: Int32 = 0
                waitpid(pid, &s, 0)
            }
        }
    }

    static func start(_ args: [String], in folder: URL, fileSizeLimitBlocks: Int? = nil, memoryLimitMB: Int? = nil,
                      stdoutTo: String? = nil, stderrTo: String? = nil) throws -> Running {
        let executable = try #require(wavegenExecutable, "the wavegen executable was not found beside the test bundle")
        let scratch = FileManager.default.temporaryDirectory.path + "/wavegen-hardening-\(UUID().uuidString)"
        let outPath = scratch + ".out", errPath = scratch + ".err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)

        // A shell changes to the folder, sets the limits and replaces itself with wavegen.
        var script = "cd \"$0\" && "
        if let blocks = fileSizeLimitBlocks { script += "trap '' XFSZ && ulimit -f \(blocks) && " }
        if let mb = memoryLimitMB { script += "ulimit -v \(mb * 1024) && " }
        script += "exec \"$@\""
        let argv = ["/bin/sh", "-c", script, folder.path, executable.path] + args

        let spawned = Spawn.start(argv, redirections: [
            Spawn.Redirection(fd: 0, path: "/dev/null", flags: O_RDONLY),
            Spawn.Redirection(fd: 1, path: stdoutTo ?? outPath, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644),
            Spawn.Redirection(fd: 2, path: stderrTo ?? errPath, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644),
        ], defaultSignals: true)
        switch spawned {
        case let .success(pid):
            return Running(pid: pid, outPath: outPath, errPath: errPath)
        case let .failure(failure):
            Issue.record("cannot start \(argv[0]): \(failure.text)")
            throw CancellationError()
        }
    }

    static func run(_ args: [String], in folder: URL, fileSizeLimitBlocks: Int? = nil, memoryLimitMB: Int? = nil,
                    stdoutTo: String? = nil, stderrTo: String? = nil, timeout: TimeInterval) throws -> Result {
        try start(args, in: folder, fileSizeLimitBlocks: fileSizeLimitBlocks, memoryLimitMB: memoryLimitMB,
                  stdoutTo: stdoutTo, stderrTo: stderrTo).wait(timeout: timeout)
    }
}
