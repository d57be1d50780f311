import Foundation
import Testing
import WaveTestSupport
import WaveKit
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview

/// A preset that renders in a blink: 16 × 16 pixels, 10 frames.
let blinkPreset = """
    {"size": [16, 16], "fps": 10, "background": "#FFFFFF", "layers": [{"color": "#1E88E5", "speed": 1}]}
    """

/// Runs `wavegen args` in this process with a console whose stderr claims to be a terminal.
func wavegenOnATerminal(_ args: [String]) -> RunResult {
    let captured = CapturedConsole()
    let base = captured.console
    let console = Console(out: base.outSink, err: base.errSink, errIsTerminal: true)
    let code = Wavegen.run(args, console: console)
    return RunResult(code: code, out: captured.out, err: captured.err)
}

extension TemporaryFolder {
    /// Writes `text` to `name`, creating its folders.
    @discardableResult
    func writeFile(_ text: String, at name: String) throws -> String {
        let path = file(name)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    func hasFile(_ name: String) -> Bool { FileManager.default.fileExists(atPath: file(name)) }

    /// Every regular file below `sub`, as paths relative to it, sorted.
    func regularFiles(under sub: String) -> [String] {
        let root = file(sub)
        guard let e = FileManager.default.enumerator(atPath: root) else { return [] }
        var out: [String] = []
        while let p = e.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + p, isDirectory: &isDirectory), !isDirectory.boolValue { out.append(p) }
        }
        return out.sorted()
    }

    func modified(_ name: String) throws -> Date {
        try #require(try FileManager.default.attributesOfItem(atPath: file(name))[.modificationDate] as? Date)
    }

    /// Sets every file below `sub` to a modification time long ago, so that a rewrite shows.
    func backdate(under sub: String) throws {
        for name in regularFiles(under: sub) {
            try FileManager.default.setAttributes([.modificationDate: backdatedTime], ofItemAtPath: file(sub + "/" + name))
        }
    }
}

let backdatedTime = Date(timeIntervalSince1970: 1_000_000_000)

extension RunResult {
    /// The output lines whose status is `status`, as their paths. A line's fields are separated by
    /// two or more spaces: status, size (absent for a failure), path, details.
    func paths(_ status: String) -> [String] {
        outLines.compactMap { line in
            let fields = line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard fields.count >= 2, fields[0] == status else { return nil }
            return fields.count >= 3 && !fields[1].contains("/") ? fields[2] : fields[1]
        }
    }
}
