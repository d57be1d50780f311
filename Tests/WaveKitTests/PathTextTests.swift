import Testing
import WaveKit

/// The path helpers against the cases Foundation's NSString helpers trapped on or answered
/// surprisingly: empty, one character, the root, trailing and doubled slashes, "./".
@Suite struct PathTextTests {
    @Test(arguments: [
        ("", ""), ("x", ""), ("m", ""), ("/", "/"), ("a/", ""), ("./x", "."), ("//x", "/"), ("/x", "/"),
        ("a/b", "a"), ("a/b/", "a"), ("a//b", "a"), ("/a/b/c.gif", "/a/b"), ("../x", ".."), ("a/b//", "a"),
    ])
    func folder(path: String, folder: String) {
        #expect(PathText.folder(of: path) == folder)
    }

    @Test(arguments: [
        ("", ""), ("x", "x"), ("/", "/"), ("//", "/"), ("a/", "a"), ("./x", "x"), ("//x", "x"),
        ("a/b.gif", "b.gif"), ("a/b/", "b"), ("/a/.hidden", ".hidden"),
    ])
    func lastComponent(path: String, last: String) {
        #expect(PathText.lastComponent(of: path) == last)
    }

    @Test(arguments: [
        ("", "x", "x"), ("", "", ""), ("a", "", "a"), ("a", "x", "a/x"), ("a/", "x", "a/x"), ("a//", "x", "a/x"),
        ("/", "x", "/x"), ("//", "x", "/x"), (".", "x", "./x"), ("a", "/abs/x", "/abs/x"), ("a", "b/c", "a/b/c"),
    ])
    func joined(folder: String, name: String, path: String) {
        #expect(PathText.joined(folder, name) == path)
    }

    @Test func extensionAndStem() {
        #expect(PathText.pathExtension(of: "x.gif") == "gif")
        #expect(PathText.pathExtension(of: "a.b/x.GIF") == "GIF")
        #expect(PathText.pathExtension(of: "a.b/x") == "")
        #expect(PathText.pathExtension(of: "x") == "")
        #expect(PathText.pathExtension(of: "") == "")
        #expect(PathText.pathExtension(of: ".gif") == "")
        #expect(PathText.pathExtension(of: "x.") == "")
        #expect(PathText.pathExtension(of: "x.tar.gz") == "gz")
        #expect(PathText.stem(of: "presets/wave.json") == "wave")
        #expect(PathText.stem(of: "x") == "x")
        #expect(PathText.stem(of: "x.") == "x")
        #expect(PathText.stem(of: ".hidden") == ".hidden")
        #expect(PathText.stem(of: "a/x.tar.gz") == "x.tar")
        #expect(PathText.stem(of: "") == "")
    }

    @Test(arguments: [
        ("", "."), (".", "."), ("x", "x"), ("./x", "x"), ("/", "/"), ("//x", "/x"), ("/a/./b/../c/", "/a/c"),
        ("/..", "/"), ("/a/../..", "/"), ("../x", "../x"), ("a/../../x", "../x"), ("a/..", "."),
    ])
    func normalised(path: String, normal: String) {
        #expect(PathText.normalised(path) == normal)
    }

    /// Splitting a path and joining it again gives back the path, for paths that have a folder.
    @Test(arguments: ["a/b", "/a/b", "/x", "./x", "a/b/c.gif"])
    func folderAndLastComponentJoinBack(path: String) {
        #expect(PathText.joined(PathText.folder(of: path), PathText.lastComponent(of: path)) == path)
    }
}
