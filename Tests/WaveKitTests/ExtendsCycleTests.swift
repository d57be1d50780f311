import Foundation
import Testing
import WaveTestSupport
@testable import WaveKit

/// An `extends` chain that comes back to a file by another spelling of its path (`./a.json`,
/// `../dir/a.json`, a link) is reported as the cycle it is, not followed until the path is too
/// long to open.
@Suite struct ExtendsCycleTests {
    let scratch: TemporaryFolder
    init() throws { scratch = try TemporaryFolder() }

    func folder() throws -> URL { try scratch.subfolder() }

    func cycle(_ chain: [String]) -> WaveError {
        WaveError(DocumentProblem(file: chain[0], line: 1, column: 13, keyPath: "extends",
                                      message: "cycle: \(chain.joined(separator: " → "))"))
    }

    @Test(arguments: [
        ("./a.json", "a.json"),
        ("a.json", "a.json"),
        ("././a.json", "a.json"),
        (".//a.json", "a.json"),
    ])
    func selfByAnotherSpelling(extends: String, reached: String) throws {
        let dir = try folder()
        try "{\"extends\": \"\(extends)\"}".write(to: dir.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        let a = dir.appendingPathComponent("a.json").path
        #expect(throws: cycle([a, dir.path + "/" + reached])) { try PresetLoader(bundled: [:]).load(a) }
    }

    @Test func selfThroughTheParentFolder() throws {
        let dir = try folder()
        let name = dir.lastPathComponent
        try "{\"extends\": \"../\(name)/a.json\"}".write(to: dir.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        let a = dir.appendingPathComponent("a.json").path
        #expect(throws: cycle([a, "\(dir.path)/../\(name)/a.json"])) { try PresetLoader(bundled: [:]).load(a) }
    }

    @Test func selfThroughALink() throws {
        let dir = try folder()
        try "{\"extends\": \"link.json\"}".write(to: dir.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.json").path, withDestinationPath: "a.json")
        let a = dir.appendingPathComponent("a.json").path
        #expect(throws: cycle([a, dir.path + "/link.json"])) { try PresetLoader(bundled: [:]).load(a) }
    }

    @Test func twoFilesByDotSlash() throws {
        let dir = try folder()
        try "{\"extends\": \"./b.json\"}".write(to: dir.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        try "{\"extends\": \"./a.json\"}".write(to: dir.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
        let a = dir.appendingPathComponent("a.json").path, b = dir.appendingPathComponent("b.json").path
        #expect(throws: cycle([a, b, a])) { try PresetLoader(bundled: [:]).load(a) }
    }

    /// A chain that only looks like it comes back (two files of one name in two folders) is no cycle.
    @Test func sameNameInAnotherFolderIsNoCycle() throws {
        let dir = try folder()
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("base"), withIntermediateDirectories: true)
        try "{\"extends\": \"./base/a.json\", \"fps\": 20}".write(to: dir.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        try "{\"size\": [32, 32], \"layers\": [{\"color\": \"#123\"}]}".write(to: dir.appendingPathComponent("base/a.json"), atomically: true, encoding: .utf8)
        let c = try PresetLoader(bundled: [:]).load(dir.appendingPathComponent("a.json").path)
        #expect(c.width == 32 && c.fps == 20)
    }

    @Test(arguments: [
        ("presets", "./a.json", "presets/a.json"),
        ("presets/.", "a.json", "presets/a.json"),
        (".", "./a.json", "a.json"),
        ("", "a.json", "a.json"),
        ("/abs/dir", "./x/../a.json", "/abs/dir/x/../a.json"),
        ("presets", "../fonts/", "presets/../fonts/"),
        ("presets", "", "presets/"),
    ])
    func joinDropsDotComponents(base: String, reference: String, joined: String) {
        #expect(PresetLoader.join(base, reference) == joined)
    }
}
