import Foundation
import WavePlatform

/// The one way tests run another program: started with posix_spawn in a given folder, standard
/// input from a file (or /dev/null), standard output and error through files so a large output
/// cannot block it, optional `ulimit`s, a timeout after which it is killed.
///
/// posix_spawn rather than Foundation's Process gives the child an empty signal mask and default
/// signal actions: tests run on worker threads that block most signals, and a child inherits the
/// mask of the thread that spawns it (with Process, a SIGTERM sent to it would stay pending for ever).
public enum ChildProcess {
    public struct Result: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        public var status: Int32
        /// The signal that ended it, if one did.
        public var signal: Int32?
        public var timedOut: Bool
        public var out: String
        public var err: String

        public var errLines: [String] { Self.lines(err) }
        public var outLines: [String] { Self.lines(out) }

        static func lines(_ s: String) -> [String] {
            var l = s.components(separatedBy: "\n")
            if l.last == "" { l.removeLast() }
            return l
        }
    }

    /// Limits a run starts under (a shell sets them and replaces itself with the program).
    public struct Limits: Sendable {
        /// `ulimit -f` in 512-byte blocks, with SIGXFSZ ignored so a write past it fails with EFBIG.
        public var fileSizeBlocks: Int?
        /// `ulimit -v` in MiB.
        public var memoryMB: Int?
        public init(fileSizeBlocks: Int? = nil, memoryMB: Int? = nil) {
            self.fileSizeBlocks = fileSizeBlocks
            self.memoryMB = memoryMB
        }
    }

    public struct StartFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// A started run, for tests that signal it or watch it.
    public final class Running: @unchecked Sendable {
        public let pid: pid_t
        private let scratch: TemporaryFolder
        /// Where its standard output and error go while it runs (unless redirected elsewhere).
        public let outPath: String
        public let errPath: String
        /// The wait status once reaped.
        private var status: Int32?

        init(pid: pid_t, scratch: TemporaryFolder, outPath: String, errPath: String) {
            self.pid = pid
            self.scratch = scratch
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
        public var hasEnded: Bool { poll() }

        /// Waits up to `timeout` seconds; kills the process when it is still running then.
        public func wait(timeout: TimeInterval) -> Result {
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

    /// Starts `argv` (its first element a path to the program) in `folder`.
    public static func start(_ argv: [String], in folder: String, input: String? = nil, limits: Limits = Limits(),
                             stdoutTo: String? = nil, stderrTo: String? = nil) throws -> Running {
        let scratch = try TemporaryFolder("wavegen-child")
        let outPath = scratch.file("out"), errPath = scratch.file("err")
        // A shell changes to the folder, sets the limits and replaces itself with the program.
        var script = "cd \"$0\" && "
        if let blocks = limits.fileSizeBlocks { script += "trap '' XFSZ && ulimit -f \(blocks) && " }
        if let mb = limits.memoryMB { script += "ulimit -v \(mb * 1024) && " }
        script += "exec \"$@\""
        let shellArgv = ["/bin/sh", "-c", script, folder] + argv
        let spawned = Spawn.start(shellArgv, redirections: [
            Spawn.Redirection(fd: 0, path: input ?? "/dev/null", flags: O_RDONLY),
            Spawn.Redirection(fd: 1, path: stdoutTo ?? outPath, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644),
            Spawn.Redirection(fd: 2, path: stderrTo ?? errPath, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644),
        ], defaultSignals: true)
        switch spawned {
        case let .success(pid):
            return Running(pid: pid, scratch: scratch, outPath: outPath, errPath: errPath)
        case let .failure(failure):
            throw StartFailure(description: "cannot start \(argv.first ?? "?"): \(failure.text)")
        }
    }

    /// Runs `argv` in `folder` to its end (or `timeout` seconds).
    public static func run(_ argv: [String], in folder: String, input: String? = nil, limits: Limits = Limits(),
                           stdoutTo: String? = nil, stderrTo: String? = nil, timeout: TimeInterval = 120) throws -> Result {
        try start(argv, in: folder, input: input, limits: limits, stdoutTo: stdoutTo, stderrTo: stderrTo).wait(timeout: timeout)
    }

    /// The `wavegen` executable SwiftPM built beside the test bundle, if there is one.
    public static let wavegen: String? = {
        var starts: [URL] = [URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()]
        if let e = Bundle.main.executableURL { starts.append(e.resolvingSymlinksInPath().deletingLastPathComponent()) }
        starts.append(Bundle.main.bundleURL)
        starts += Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map { $0.bundleURL.deletingLastPathComponent() }
        for start in starts {
            var dir = start
            for _ in 0..<4 {
                let candidate = dir.appendingPathComponent("wavegen")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                   FileManager.default.isExecutableFile(atPath: candidate.path) {
                    return candidate.path
                }
                dir = dir.deletingLastPathComponent()
            }
        }
        return nil
    }()

    /// Starts the built `wavegen` with `args` in `folder` (as `start`).
    public static func startWavegen(_ args: [String], in folder: String, limits: Limits = Limits(),
                                    stdoutTo: String? = nil, stderrTo: String? = nil) throws -> Running {
        guard let wavegen else { throw StartFailure(description: "the wavegen executable was not found beside the test bundle") }
        return try start([wavegen] + args, in: folder, limits: limits, stdoutTo: stdoutTo, stderrTo: stderrTo)
    }

    /// Runs the built `wavegen` with `args` in `folder` to its end (or `timeout` seconds).
    public static func runWavegen(_ args: [String], in folder: String, limits: Limits = Limits(),
                                  stdoutTo: String? = nil, stderrTo: String? = nil, timeout: TimeInterval = 300) throws -> Result {
        try startWavegen(args, in: folder, limits: limits, stdoutTo: stdoutTo, stderrTo: stderrTo).wait(timeout: timeout)
    }

    /// Runs `command` with `/bin/sh -c` (from `/` unless told) to its end (or `timeout` seconds).
    public static func shell(_ command: String, in folder: String = "/", timeout: TimeInterval = 300) throws -> Result {
        try run(["/bin/sh", "-c", command], in: folder, timeout: timeout)
    }

    /// The path of the first of `names` found on PATH (or in the extra folders), if any.
    public static func find(_ names: [String], extra: [String] = []) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":").map(String.init) + extra {
            for name in names where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") { return "\(dir)/\(name)" }
        }
        return nil
    }
}
