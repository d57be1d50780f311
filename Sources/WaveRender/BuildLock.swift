import Foundation
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

        public init(input: String, file: String) {
            self.input = input
            self.file = file
        }
    }

    /// Entries by output path relative to the manifest's folder.
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
        guard FileManager.default.fileExists(atPath: path) else { return .missing }
        guard let data = FileManager.default.contents(atPath: path) else { return .unusable("cannot be read") }
        let root: JSONNode
        do {
            root = try JSONParser.parse([UInt8](data))
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
            lock.entries[m.key] = Entry(input: input, file: file)
        }
        return .lock(lock)
    }

    static func isDigest(_ s: String) -> Bool {
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
            lines.append("    \(JSONNode.string(path).serialized()): {\"input\": \"\(e.input)\", \"file\": \"\(e.file)\"}" + (i < paths.count - 1 ? "," : ""))
        }
        lines += ["  }", "}"]
        return lines.joined(separator: "\n") + "\n"
    }
}
