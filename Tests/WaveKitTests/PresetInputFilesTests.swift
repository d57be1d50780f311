import Foundation
import Testing
import WaveTestSupport
@testable import WaveKit

/// `PresetLoader.inputFiles`: the files a preset reads, for the preview server to watch.
@Suite struct PresetInputFilesTests {
    let scratch: TemporaryFolder
    let folder: URL
    init() throws {
        scratch = try TemporaryFolder()
        folder = scratch.url
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("base"), withIntermediateDirectories: true)
    }

    func write(_ text: String, _ name: String) -> String {
        let path = folder.appendingPathComponent(name).path
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    @Test func theChainTheRiderImageAndTheFont() {
        let parent = write(##"{"size": [16, 16], "layers": [{"color": "#000000"}], "label": {"text": "x", "font": "fonts/a.ttf"}}"##, "base/parent.json")
        let child = write(#"{"extends": "base/parent.json", "rider": {"image": "img/boat.png", "width": 4}}"#, "child.json")
        let dir = folder.path
        #expect(PresetLoader().inputFiles(child) == [child, dir + "/base/parent.json", dir + "/img/boat.png", dir + "/base/fonts/a.ttf"])
        #expect(dir + "/base/parent.json" == parent)
        // An override that names another image.
        let overridden = PresetLoader().inputFiles(child, overrides: [PresetOverride(parsing: "rider.image=/abs/b.png")!])
        #expect(overridden == [child, parent, "/abs/b.png", dir + "/base/fonts/a.ttf"])
    }

    @Test func aMissingOrBrokenFileIsListedUpToWhereItFails() {
        let child = write(#"{"extends": "base/missing.json"}"#, "child.json")
        #expect(PresetLoader().inputFiles(child) == [child, folder.path + "/base/missing.json"])
        let broken = write(#"{"size": [16, 16], "#, "broken.json")
        #expect(PresetLoader().inputFiles(broken) == [broken])
        #expect(PresetLoader().inputFiles(folder.path + "/none.json") == [folder.path + "/none.json"])
    }

    @Test func bundledPresetsAreNoFiles() {
        #expect(PresetLoader().inputFiles("boat").isEmpty)
        #expect(PresetLoader().inputFiles("no-such-preset").isEmpty)
    }
}
