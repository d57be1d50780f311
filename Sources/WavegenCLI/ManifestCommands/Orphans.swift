import Foundation
import WaveKit
import WaveRender

/// Files a manifest's jobs would write but no longer plan: they match a job's output template (its
/// fields filled with any value they can take) under the folder the template writes into, and are
/// not one of the planned outputs. Nothing that does not match a template is ever reported, and a
/// `.png` only when it is an animated PNG as wavegen writes them (`acTL` right after the header):
/// output folders often hold still PNGs of other origins.
enum Orphans {
    /// The orphans of `plan`'s jobs, as paths like the outputs' (sorted).
    static func find(_ plan: BuildPlan) -> [String] {
        let planned = Set(plan.outputs.map(\.key))
        var found = Set<String>()
        var jobs: [Int: BuildManifest.Job] = [:]
        for o in plan.outputs { jobs[o.job.index] = o.job }
        for job in jobs.values.sorted(by: { $0.index < $1.index }) {
            let name = BuildPlan.presetName(job, loader: .standard)
            guard let regex = try? NSRegularExpression(pattern: "^" + pattern(job.output, name: name) + "$") else { continue }
            let root = BuildManifest.resolve(literalFolder(job.output), in: plan.manifest.directory)
            let base = BuildManifest.resolve("", in: plan.manifest.directory)
            for path in files(under: root) {
                let relative = base.isEmpty ? path : String(path.dropFirst(base.hasSuffix("/") ? base.count : base.count + 1))
                let range = NSRange(relative.startIndex..., in: relative)
                guard regex.firstMatch(in: relative, range: range) != nil, !planned.contains(BuildPlan.normalised(path)),
                      !path.lowercased().hasSuffix(".png") || isAnimatedPNG(path) else { continue }
                found.insert(path)
            }
        }
        return found.sorted()
    }

    /// Whether the file starts like an APNG wavegen writes: the PNG signature, `IHDR`, then `acTL`.
    static func isAnimatedPNG(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = [UInt8](handle.readData(ofLength: 41))
        return head.count == 41 && head[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            && head[37..<41].elementsEqual(Array("acTL".utf8))
    }

    /// The template as a regular expression over paths relative to the manifest's folder.
    static func pattern(_ template: OutputTemplate, name: String) -> String {
        template.segments.map { segment -> String in
            switch segment {
            case let .text(t): return NSRegularExpression.escapedPattern(for: t)
            case let .field(field):
                switch field {
                case .name: return NSRegularExpression.escapedPattern(for: name)
                case .variant: return "[^/]+"
                case .scale: return "(@[0-9]+(\\.[0-9]+)?x)?"
                case .level: return "[0-9]{3}"
                case .format: return "(" + OutputFormat.allCases.map(\.fileExtension).joined(separator: "|") + ")"
                }
            }
        }.joined()
    }

    /// The folder part of the template before its first field ("out/loader" for
    /// "out/loader/{name}{scale}.{format}").
    static func literalFolder(_ template: OutputTemplate) -> String {
        var prefix = ""
        for segment in template.segments {
            guard case let .text(t) = segment else { break }
            prefix += t
        }
        guard let slash = prefix.lastIndex(of: "/") else { return "" }
        return String(prefix[..<slash])
    }

    /// Regular files below `folder` (not following links into other folders), as paths joined to it.
    static func files(under folder: String) -> [String] {
        let start = folder.isEmpty ? "." : folder
        guard let e = FileManager.default.enumerator(atPath: start) else { return [] }
        var out: [String] = []
        while let relative = e.nextObject() as? String {
            let path = PathText.joined(folder, relative)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue { out.append(path) }
        }
        return out
    }
}
