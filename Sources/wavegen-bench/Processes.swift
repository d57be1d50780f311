import Foundation
import WaveTestSupport
import WavePlatform

/// What a finished child process reported.
struct ChildResult {
    var status: Int32
    var seconds: Double
    /// The child's standard error (last few KB), for failures.
    var stderr: String
}

enum Processes {
    /// Finds `name` on PATH (or takes it as a path when it has a slash).
    static func which(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = dir + "/" + name
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// This executable's path, for spawning itself.
    static var selfPath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Runs `arguments` (the first an executable path) with stdin and stdout on /dev/null and stderr
    /// captured to a file, and returns its exit status and wall time. (Not its peak RSS: a child started
    /// by posix_spawn inherits this process's high-water mark in ru_maxrss.)
    static func run(_ arguments: [String]) throws -> ChildResult {
        let folder = try TemporaryFolder("wavegen-bench-child")
        let errPath = folder.file("stderr")
        let start = now()
        let spawned = Spawn.start(arguments, redirections: [
            Spawn.Redirection(fd: 0, path: "/dev/null", flags: O_RDONLY),
            Spawn.Redirection(fd: 1, path: "/dev/null", flags: O_WRONLY),
            Spawn.Redirection(fd: 2, path: errPath, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600),
        ])
        let pid: pid_t
        switch spawned {
        case let .success(started): pid = started
        case let .failure(failure): throw BenchError("cannot start \(arguments[0]): \(failure.text)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw BenchError("waitpid failed for \(arguments[0])") }
        }
        let seconds = now() - start
        let text = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        // Exit status: WIFEXITED/WEXITSTATUS are macros; decode by hand.
        let code: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return ChildResult(status: code, seconds: seconds, stderr: String(text.suffix(4000)))
    }
}

/// Writes straight RGBA frames as PAM (P7, RGB_ALPHA), which img2webp reads without a PNG decoder.
enum PAMWriter {
    static func write(_ rgba: [UInt8], width: Int, height: Int, to path: String) throws {
        var data = Data("P7\nWIDTH \(width)\nHEIGHT \(height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
        data.append(contentsOf: rgba)
        try data.write(to: URL(fileURLWithPath: path))
    }
}
