import Foundation
import Testing
import WaveTestSupport
@testable import WavePlatform

/// FileSystem replaced Foundation's FileManager and Data in the executable: each call is held
/// against Foundation (the slow, obviously correct reference) on real files in a fresh folder.
@Suite struct FileSystemTests {
    @Test(arguments: [0, 1, 65_535, 65_536, 65_537, 200_003])
    func readsWhatFoundationWrote(count: Int) throws {
        let scratch = try TemporaryFolder("wavegen-platform")
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Data(bytes).write(to: URL(fileURLWithPath: scratch.file("f")))
        #expect(try FileSystem.read(scratch.file("f")) == bytes)
        #expect(try FileSystem.read(scratch.file("f"), upTo: 10) == Array(bytes.prefix(10)))
        #expect(try FileSystem.read(scratch.file("f"), upTo: 70_000) == Array(bytes.prefix(70_000)))
        #expect(FileSystem.size(of: scratch.file("f")) == count)
        #expect(FileSystem.contents(of: scratch.file("f")) == bytes)
    }

    @Test func aMissingFileFailsWithTheSystemsWords() throws {
        let scratch = try TemporaryFolder("wavegen-platform")
        do {
            _ = try FileSystem.read(scratch.file("nothing"))
            Issue.record("read a missing file")
        } catch {
            #expect(error.isMissing && error.call == "open" && error.path == scratch.file("nothing"))
            #expect(error.reason == "No such file or directory")
        }
        #expect(FileSystem.contents(of: scratch.file("nothing")) == nil)
        #expect(FileSystem.size(of: scratch.file("nothing")) == nil)
        // A NUL byte cannot reach the C library: it names no file.
        #expect(throws: FileSystem.Failure.self) { try FileSystem.read(scratch.file("a\u{0}b")) }
        #expect(FileSystem.kind(of: scratch.file("a\u{0}b")) == nil)
        // A folder is not read as a file.
        #expect(throws: FileSystem.Failure.self) { try FileSystem.read(scratch.path) }
    }

    @Test func listsWhatFoundationLists() throws {
        let scratch = try TemporaryFolder("wavegen-platform")
        let names = ["b", "a", "A", ".hidden", "ünï", "z z", "10", "9", "日本"]
        for name in names { FileManager.default.createFile(atPath: scratch.file(name), contents: Data([1])) }
        try FileManager.default.createDirectory(atPath: scratch.file("sub"), withIntermediateDirectories: false)
        let expected = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(try FileSystem.names(in: scratch.path) == expected)
        #expect(try FileSystem.names(in: scratch.path).count == names.count + 1)
        #expect(throws: FileSystem.Failure.self) { try FileSystem.names(in: scratch.file("none")) }
        #expect(throws: FileSystem.Failure.self) { try FileSystem.names(in: scratch.file("a")) }
    }

    @Test func kindsMatchFoundation() throws {
        let scratch = try TemporaryFolder("wavegen-platform")
        FileManager.default.createFile(atPath: scratch.file("file"), contents: Data("x".utf8))
        try FileManager.default.createDirectory(atPath: scratch.file("dir"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: scratch.file("link"), withDestinationPath: scratch.file("file"))
        try FileManager.default.createSymbolicLink(atPath: scratch.file("dangling"), withDestinationPath: scratch.file("gone"))
        for name in ["file", "dir", "link", "dangling", "gone"] {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: scratch.file(name), isDirectory: &isDirectory)
            #expect(FileSystem.exists(scratch.file(name)) == exists, "\(name)")
            #expect(FileSystem.isDirectory(scratch.file(name)) == (exists && isDirectory.boolValue), "\(name)")
        }
        #expect(FileSystem.kind(of: scratch.file("file")) == .regularFile)
        #expect(FileSystem.kind(of: scratch.file("link")) == .regularFile)
        #expect(FileSystem.kindOfEntry(scratch.file("link")) == .other)
        #expect(FileSystem.kindOfEntry(scratch.file("dangling")) == .other)
        #expect(FileSystem.kind(of: scratch.file("dangling")) == nil)
        #expect(FileSystem.kind(of: "/dev/null") == .other)
        // Two spellings of one file share an identity; resolving follows the link.
        let a = try #require(FileSystem.identity(of: scratch.file("file")))
        let b = try #require(FileSystem.identity(of: scratch.path + "/dir/../link"))
        #expect(a.device == b.device && a.inode == b.inode)
        #expect(FileSystem.resolved(scratch.file("link")) == FileSystem.resolved(scratch.file("file")))
        #expect(FileSystem.resolved(scratch.file("link")) == URL(fileURLWithPath: scratch.file("link")).resolvingSymlinksInPath().path)
        #expect(FileSystem.resolved(scratch.file("gone")) == nil)
    }

    @Test func createsFoldersLikeFoundation() throws {
        let scratch = try TemporaryFolder("wavegen-platform")
        try FileSystem.createDirectory(scratch.file("a/b/c"))
        try FileSystem.createDirectory(scratch.file("a/b/c"))  // already there: fine
        try FileSystem.createDirectory(scratch.file("a/b/d/"))  // a trailing slash
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: scratch.file("a/b/c"), isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(FileManager.default.fileExists(atPath: scratch.file("a/b/d"), isDirectory: &isDirectory) && isDirectory.boolValue)
        FileManager.default.createFile(atPath: scratch.file("file"), contents: Data())
        do {
            try FileSystem.createDirectory(scratch.file("file/sub"))
            Issue.record("made a folder under a file")
        } catch {
            #expect(error.code == ENOTDIR && error.call == "mkdir")
        }
        #expect(throws: FileSystem.Failure.self) { try FileSystem.createDirectory(scratch.file("file")) }
    }

    @Test func renamesAndRemoves() throws {
        let scratch = try TemporaryFolder("wavegen-platform")
        FileManager.default.createFile(atPath: scratch.file("new"), contents: Data("new".utf8))
        FileManager.default.createFile(atPath: scratch.file("old"), contents: Data("old".utf8))
        try FileSystem.rename(scratch.file("new"), to: scratch.file("old"))
        #expect(FileManager.default.contents(atPath: scratch.file("old")) == Data("new".utf8))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("new")))
        #expect(throws: FileSystem.Failure.self) { try FileSystem.rename(scratch.file("new"), to: scratch.file("x")) }

        try FileSystem.remove(scratch.file("old"))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("old")))
        do {
            try FileSystem.remove(scratch.file("old"))
            Issue.record("removed a missing file")
        } catch {
            #expect(error.isMissing && error.call == "unlink")
        }

        try FileManager.default.createDirectory(atPath: scratch.file("full/inner"), withIntermediateDirectories: true)
        do {
            try FileSystem.removeDirectory(scratch.file("full"))
            Issue.record("removed a folder that is not empty")
        } catch {
            #expect(error.code == ENOTEMPTY && error.call == "rmdir")
        }
        try FileSystem.removeDirectory(scratch.file("full/inner"))
        try FileSystem.removeDirectory(scratch.file("full"))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("full")))
    }

    @Test func createNewRefusesAFileThatIsThere() throws {
        let scratch = try TemporaryFolder("wavegen-platform")
        let fd = try FileSystem.createNew(scratch.file("once"))
        #expect(fd >= 0)
        _ = close(fd)
        do {
            _ = try FileSystem.createNew(scratch.file("once"))
            Issue.record("created a file twice")
        } catch {
            #expect(error.code == EEXIST)
        }
        let lock = try #require(FileSystem.lockExclusively(scratch.file("once")))
        _ = close(lock)
        #expect(FileSystem.lockExclusively(scratch.file("none")) == nil)
    }

    @Test func stampsChangeWithTheFile() throws {
        let scratch = try TemporaryFolder("wavegen-platform")
        #expect(!FileStamp.of(scratch.file("f")).exists)
        FileManager.default.createFile(atPath: scratch.file("f"), contents: Data("one".utf8))
        let first = FileStamp.of(scratch.file("f"))
        let attributes = try FileManager.default.attributesOfItem(atPath: scratch.file("f"))
        #expect(first.exists && first.size == 3)
        #expect(first.inode == (attributes[.systemFileNumber] as? NSNumber)?.uint64Value)
        let modified = try #require(attributes[.modificationDate] as? Date).timeIntervalSince1970
        #expect(abs(Double(first.modified) / 1e9 - modified) < 0.001)
        FileManager.default.createFile(atPath: scratch.file("g"), contents: Data("other".utf8))
        try FileSystem.rename(scratch.file("g"), to: scratch.file("f"))
        let second = FileStamp.of(scratch.file("f"))
        #expect(second != first && second.size == 5)
    }

    @Test(arguments: [("a/b", "a"), ("a/b/", "a"), ("/a", "/"), ("a", ""), ("/", "/"), ("a//b", "a/"), ("/x/y/z", "/x/y")])
    func parentFolders(path: String, parent: String) {
        #expect(FileSystem.parentFolder(of: path) == parent)
    }
}
