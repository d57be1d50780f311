/// File paths taken apart and joined as plain text, the way `dirname`, `basename` and a shell's
/// `a/b` do, without Foundation's path helpers (which trapped on a one-character name). Nothing
/// here touches the file system; "" is the current folder, and no path is ever made absolute.
public enum PathText {
    /// The folder holding `path`'s last component: "" for a bare name (the current folder), "/" for
    /// a name at the root, and the path before the last slash otherwise, without trailing slashes.
    /// Trailing slashes on `path` itself are ignored ("a/b/" is in "a").
    public static func folder(of path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let head = trimmingTrailingSlashes(String(trimmed[..<slash]))
        return head.isEmpty ? "/" : head
    }

    /// The last component of `path`, ignoring trailing slashes: "b" for "a/b" and "a/b/", "/" for
    /// a path of only slashes, "" for "".
    public static func lastComponent(of path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        let tail = String(trimmed[trimmed.index(after: slash)...])
        return tail.isEmpty ? "/" : tail
    }

    /// `name` inside `folder`: `name` itself when `folder` is "" (the current folder) or `name` is
    /// absolute, `folder` when `name` is "", else the two with one slash between them.
    public static func joined(_ folder: String, _ name: String) -> String {
        if folder.isEmpty || name.hasPrefix("/") { return name }
        if name.isEmpty { return folder }
        let head = trimmingTrailingSlashes(folder)
        return head == "/" ? "/" + name : head + "/" + name
    }

    /// The extension of `path`'s last component, without its dot ("gif" for "a/x.gif"); "" when the
    /// name has no dot past its first character (".gif" and "x" have none).
    public static func pathExtension(of path: String) -> String {
        let name = lastComponent(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// `path`'s last component without its extension ("x" for "a/x.gif").
    public static func stem(of path: String) -> String {
        let name = lastComponent(of: path)
        let ext = pathExtension(of: path)
        return ext.isEmpty && !name.hasSuffix(".") ? name : String(name.dropLast(ext.count + 1))
    }

    /// `path` with "." components, repeated slashes and a trailing slash removed and each ".."
    /// taking away the component before it ("/a/./b/../c/" is "/a/c"); ".." at the root stays at
    /// the root, and a relative path keeps the ".." it cannot resolve. "" and "." are ".".
    public static func normalised(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if part == "..", absolute {
                continue
            } else {
                parts.append(part)
            }
        }
        let body = parts.joined(separator: "/")
        return absolute ? "/" + body : (body.isEmpty ? "." : body)
    }

    /// `path` without slashes at its end, unless it is only slashes ("/" stays "/").
    static func trimmingTrailingSlashes(_ path: String) -> String {
        var s = Substring(path)
        while s.count > 1, s.hasSuffix("/") { s = s.dropLast() }
        return String(s)
    }
}
