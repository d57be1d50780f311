import Foundation
import Testing

/// The package builds on Linux and macOS only while the C library is reached through WavePlatform.
/// There is no macOS here to compile on, so these tests read the sources instead: outside
/// `Sources/WavePlatform`, no Swift file imports Glibc, Darwin or Musl, names a member through
/// them (`Glibc.send`), or uses a name that exists on one system only.
@Suite struct PlatformLayerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let platformFolder = "Sources/WavePlatform/"

    /// Names of one C library only: Linux's (glibc, musl) or Darwin's.
    static let oneSystemNames = [
        "SOCK_CLOEXEC", "SOCK_NONBLOCK", "MSG_NOSIGNAL", "__sigaction_handler", "__sigaction_u", "__sa_handler",
        "st_mtim", "st_ctim", "st_atim", "st_mtimespec", "st_ctimespec", "st_atimespec", "SO_NOSIGPIPE",
        "accept4", "pipe2", "inotify_init", "inotify_add_watch", "epoll_create", "epoll_wait", "kqueue", "kevent",
        // Structs in glibc, opaque pointers on Darwin; Darwin has no `environ` (`_NSGetEnviron()`).
        "posix_spawnattr_t", "posix_spawn_file_actions_t", "environ", "_NSGetEnviron",
    ]

    /// Every Swift file under Sources/ and Tests/ (relative path, text), this one left out: it
    /// names what it looks for.
    static func swiftFiles() throws -> [(path: String, text: String)] {
        var files: [(String, String)] = []
        for top in ["Sources", "Tests"] {
            let base = root.appendingPathComponent(top)
            let walker = try #require(FileManager.default.enumerator(atPath: base.path))
            for case let relative as String in walker where relative.hasSuffix(".swift") {
                let path = top + "/" + relative
                guard path != "Tests/WavePlatformTests/PlatformLayerTests.swift" else { continue }
                files.append((path, try String(contentsOf: base.appendingPathComponent(relative), encoding: .utf8)))
            }
        }
        return files
    }

    /// The code of a line, its `//` comment left out.
    static func code(_ line: Substring) -> Substring {
        line.range(of: "//").map { line[..<$0.lowerBound] } ?? line
    }

    // `\b` is a simple word boundary (letters, digits, `_`): Unicode's would not end a word at
    // the `.` of `st.st_mtim.tv_sec`.

    nonisolated(unsafe) static let importPattern = #/^\s*(@\w+\s+)*((public|package|internal|fileprivate|private)\s+)?import\s+((typealias|struct|class|enum|protocol|let|var|func)\s+)?(Glibc|Darwin|Musl)\b/#.wordBoundaryKind(.simple)
    nonisolated(unsafe) static let qualifiedPattern = #/\b(Glibc|Darwin|Musl)\.\w/#.wordBoundaryKind(.simple)
    nonisolated(unsafe) static let namePatterns = oneSystemNames.map { try! Regex("\\b\($0)\\b").wordBoundaryKind(.simple) }

    /// What a file outside WavePlatform does that only WavePlatform may: each as "path:line: text".
    static func violations(path: String, text: String) -> [String] {
        var found: [String] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = code(line)
            // The plain `contains` first: the regular expressions are slow in a debug build.
            let reaches = ["Glibc", "Darwin", "Musl"].contains { code.contains($0) }
                && (code.firstMatch(of: importPattern) != nil || code.firstMatch(of: qualifiedPattern) != nil)
            if reaches || oneSystemNames.indices.contains(where: { code.contains(oneSystemNames[$0]) && code.firstMatch(of: namePatterns[$0]) != nil }) {
                found.append("\(path):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return found
    }

    @Test func onlyWavePlatformReachesTheCLibrary() throws {
        let files = try Self.swiftFiles()
        #expect(files.contains { $0.path.hasPrefix(Self.platformFolder) }, "WavePlatform's sources were not found under \(Self.root.path)")
        #expect(files.count > 100, "too few Swift files found: \(files.count)")
        let found = files.filter { !$0.path.hasPrefix(Self.platformFolder) }.flatMap { Self.violations(path: $0.path, text: $0.text) }
        #expect(found.isEmpty, "outside Sources/WavePlatform, only WavePlatform's functions may reach the C library:\n\(found.joined(separator: "\n"))")
    }

    /// Each WavePlatform file that imports a C library has a branch for each system.
    @Test func wavePlatformHasALinuxAndADarwinBranch() throws {
        let files = try Self.swiftFiles().filter { $0.path.hasPrefix(Self.platformFolder) }
        for file in files where file.text.contains("import Glibc") {
            for branch in ["#if canImport(Glibc)", "canImport(Darwin)", "import Darwin", "canImport(Musl)", "import Musl"] {
                #expect(file.text.contains(branch), "\(file.path) has no \(branch)")
            }
        }
    }

    /// The targets the `wavegen` executable is built from (dev tools and tests may use Foundation).
    static let executableTargets = ["wavegen", "WavegenCLI", "WavePreview", "WaveBuild", "WaveRender", "WaveKit", "WavePlatform",
                                    "WaveGIF", "WaveWebP", "WaveAPNG", "WavePNG", "WaveText", "WaveZip"]
    nonisolated(unsafe) static let foundationPattern = #/^\s*(@\w+\s+)*((public|package|internal|fileprivate|private)\s+)?import\s+((typealias|struct|class|enum|protocol|let|var|func)\s+)?(Foundation|FoundationEssentials|FoundationInternationalization)\b/#.wordBoundaryKind(.simple)

    /// Linking Foundation (even FoundationEssentials for `Data`) adds 7 MB to 53 MB to the binary,
    /// so no source the executable is built from imports it (scripts/checks/check-install weighs the result).
    @Test func theExecutableImportsNoFoundation() throws {
        let files = try Self.swiftFiles().filter { file in Self.executableTargets.contains { file.path.hasPrefix("Sources/\($0)/") } }
        #expect(files.count > 100, "too few Swift files found: \(files.count)")
        let found = files.flatMap { file in
            file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                .filter { $0.element.firstMatch(of: Self.foundationPattern) != nil }
                .map { "\(file.path):\($0.offset + 1): \($0.element)" }
        }
        #expect(found.isEmpty, "the wavegen executable's targets must not import Foundation:\n\(found.joined(separator: "\n"))")
        for line in ["import Foundation", "@preconcurrency import FoundationEssentials", "internal import Foundation"] {
            #expect(line.firstMatch(of: Self.foundationPattern) != nil, "not caught: \(line)")
        }
        #expect("import FoundationX".firstMatch(of: Self.foundationPattern) == nil)
    }

    /// The check itself finds what it is meant to find.
    @Test func theCheckFindsWhatItLooksFor() {
        let bad = ["import Glibc", "@preconcurrency import Darwin", "internal import Musl", "import func Glibc.send",
                   "let n = Glibc.send(fd, p, n, 0)", "flags |= MSG_NOSIGNAL", "t = st.st_mtim.tv_sec", "a.__sigaction_handler.sa_handler = h",
                   "var actions = posix_spawn_file_actions_t()", "posix_spawn(&pid, path, nil, nil, argv, environ)"]
        for line in bad { #expect(Self.violations(path: "X.swift", text: line).count == 1, "not caught: \(line)") }
        let good = ["import Foundation", "// uses MSG_NOSIGNAL on Linux", "/// `Glibc.listen`", "Socket.send(fd, p, n, noSignal: true)", "let st_mtime_seconds = 1", "ProcessInfo.processInfo.environment"]
        for line in good { #expect(Self.violations(path: "X.swift", text: line).isEmpty, "wrongly caught: \(line)") }
    }
}
