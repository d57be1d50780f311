import WavePlatform
import WaveKit

/// What a path names on disk, seen through symbolic and hard links. A build uses it to keep its
/// outputs inside the manifest's folder, off its inputs, and from writing one file under two names;
/// a path's text alone says none of this (`out/x.gif` is outside when `out` links elsewhere).
public enum OnDisk {
    /// A file's device and inode: two paths with one identity are one file.
    public typealias Identity = FileIdentity

    /// The identity of the file `path` names, links followed; nil when there is none.
    public static func identity(_ path: String) -> Identity? { FileIdentity(path: path) }

    /// `path` made absolute, with the symbolic links of its longest existing leading part resolved
    /// (`realpath`), and `.` and `..` of the rest removed as text (nothing there exists to link).
    public static func realPath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileSystem.currentDirectory + "/" + path
        var head = absolute.split(separator: "/").map(String.init)
        var rest: [String] = []
        var base: [String] = []
        while true {
            let candidate = "/" + head.joined(separator: "/")
            if !candidate.utf8.contains(0), let real = FileSystem.resolved(candidate) {
                base = real.split(separator: "/").map(String.init)
                break
            }
            guard let last = head.popLast() else { break }
            rest.insert(last, at: 0)
        }
        for component in rest {
            switch component {
            case ".": continue
            case "..": _ = base.popLast()
            default: base.append(component)
            }
        }
        return "/" + base.joined(separator: "/")
    }

    /// The real path of the folder `path` is in, joined to its last component: where a write to
    /// `path` lands (a write replaces a link in the last place, it does not follow it).
    public static func landingPath(_ path: String) -> String {
        let folder = PathText.folder(of: path)
        return PathText.joined(realPath(folder.isEmpty ? "." : folder), PathText.lastComponent(of: path))
    }

    /// Whether the real path `path` is `folder` or below it (both real paths).
    public static func isInside(_ path: String, folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }

    /// Why `path` cannot be a file name wavegen writes, or nil when it can: a NUL (the system would
    /// cut the name there and write another file), a control character, or a component longer than
    /// a file system allows (255 bytes).
    public static func nameProblem(_ path: String) -> String? {
        if let bad = path.unicodeScalars.first(where: isControl) {
            return bad == "\u{0}" ? "holds a NUL character" : "holds the control character U+\(hex(bad.value))"
        }
        if let long = path.split(separator: "/").first(where: { $0.utf8.count > maxNameBytes }) {
            return "has a name of \(long.utf8.count) bytes (at most \(maxNameBytes))"
        }
        return nil
    }

    /// The longest file name (one path component) Linux and macOS file systems take.
    public static let maxNameBytes = 255

    /// C0 and C1 controls and DEL: never part of a file name wavegen writes.
    public static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7F...0x9F).contains(s.value)
    }

    static func hex(_ v: UInt32) -> String {
        let digits = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
