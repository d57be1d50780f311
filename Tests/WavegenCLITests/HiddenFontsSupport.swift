import Foundation
import Testing
import WaveTestSupport

/// Runs shell commands with the system's font folders hidden: in a private mount namespace
/// (`unshare -m`), an empty tmpfs is mounted over every folder fontconfig reads fonts or its cache
/// from, so neither a font file nor fontconfig finds anything there.
enum HiddenFonts {
    /// The folders hidden: fontconfig's font folders on Debian and its caches.
    static let folders = ["/usr/share/fonts", "/usr/local/share/fonts", "/var/cache/fontconfig",
                          NSHomeDirectory() + "/.fonts", NSHomeDirectory() + "/.local/share/fonts", NSHomeDirectory() + "/.cache/fontconfig"]

    /// Why fonts cannot be hidden here (no `unshare`, or no right to make a mount namespace), or
    /// nil when they can.
    static let unavailable: String? = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return "/usr/bin/unshare is not installed" }
        let r = shell("unshare -m sh -c 'mount -t tmpfs none /usr/share/fonts'")
        return r.code == 0 ? nil : "unshare -m cannot mount here (\(r.err.trimmingCharacters(in: .whitespacesAndNewlines)))"
    }()

    /// Runs `command` with `sh -c` in `folder`, the font folders hidden; nil (after printing why)
    /// when they cannot be hidden here.
    static func run(_ command: String, in folder: String) -> (code: Int32, out: String, err: String)? {
        if let reason = unavailable {
            print("skipped: the system's fonts cannot be hidden: \(reason)")
            return nil
        }
        let mounts = folders.filter { FileManager.default.fileExists(atPath: $0) }
            .map { "mount -t tmpfs none '\($0)'" }.joined(separator: " && ")
        let script = "\(mounts) && cd '\(folder)' && \(command)"
        return shell("unshare -m sh -c \(quoted(script))")
    }

    /// `text` in single quotes for sh.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs `command` with /bin/sh (`ChildProcess.shell`).
    static func shell(_ command: String) -> (code: Int32, out: String, err: String) {
        do {
            let r = try ChildProcess.shell(command)
            return (r.status, r.out, r.err)
        } catch {
            return (127, "", "\(error)")
        }
    }
}
