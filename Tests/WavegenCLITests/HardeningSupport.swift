import Foundation
import Testing
import WavePlatform
import WaveTestSupport

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
    /// address space); scripts/dev/sanitize sets this.
    static var underSanitizer: Bool { ProcessInfo.processInfo.environment["WAVEGEN_SANITIZER"] != nil }

    /// The longest a case may run.
    static let timeout: TimeInterval = 20

    /// Runs one case in a fresh copy of the fixtures and checks everything the manifest says.
    static func run(_ c: HardeningCase) throws {
        let scratch = try TemporaryFolder("wavegen-hardening")
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
                let path = root.appendingPathComponent(p).path
                scratch.beforeRemoval.append { _ = chattr("-i", path) }
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
        (try? ChildProcess.run(["/usr/bin/chattr", flag, path], in: "/", timeout: 20))?.status == 0
    }
}

/// The built `wavegen` run as a child process (`ChildProcess`) with optional limits and a timeout.
enum HardeningProcess {
    typealias Result = ChildProcess.Result
    typealias Running = ChildProcess.Running

    static func start(_ args: [String], in folder: URL, fileSizeLimitBlocks: Int? = nil, memoryLimitMB: Int? = nil,
                      stdoutTo: String? = nil, stderrTo: String? = nil) throws -> Running {
        try ChildProcess.startWavegen(args, in: folder.path,
                                      limits: ChildProcess.Limits(fileSizeBlocks: fileSizeLimitBlocks, memoryMB: memoryLimitMB),
                                      stdoutTo: stdoutTo, stderrTo: stderrTo)
    }

    static func run(_ args: [String], in folder: URL, fileSizeLimitBlocks: Int? = nil, memoryLimitMB: Int? = nil,
                    stdoutTo: String? = nil, stderrTo: String? = nil, timeout: TimeInterval) throws -> Result {
        try start(args, in: folder, fileSizeLimitBlocks: fileSizeLimitBlocks, memoryLimitMB: memoryLimitMB,
                  stdoutTo: stdoutTo, stderrTo: stderrTo).wait(timeout: timeout)
    }
}
