import WavePlatform
import WaveKit

/// An Xcode asset catalog (`Loaders.xcassets`) a job writes into (its `catalog`): each output is a
/// data set, `Loaders.xcassets/NAME.dataset/`, holding the file and a `Contents.json` that names
/// it, where NAME is the output's file name without its extension; the catalog itself has a
/// `Contents.json` too. Apps load a data set with `NSDataAsset(name: "NAME")`.
///
/// The `Contents.json` files are computed, not rendered, and written as Xcode writes them (sorted
/// keys, two-space indent, `" : "`), so that opening the catalog in Xcode changes nothing.
public enum AssetCatalog {
    /// The uniform type identifier Xcode records for a data set's file of `format`.
    public static func typeIdentifier(_ format: OutputFormat) -> String {
        switch format {
        case .gif: "com.compuserve.gif"
        case .webp: "org.webmproject.webp"
        case .apng: "public.png"
        case .svg: "public.svg-image"
        case .lottie: "public.json"
        case .dotlottie: "public.zip-archive"
        }
    }

    /// The catalog's own `Contents.json`.
    public static var catalogContents: [UInt8] {
        Array("{\n  \"info\" : {\n    \"author\" : \"xcode\",\n    \"version\" : 1\n  }\n}\n".utf8)
    }

    /// A data set's `Contents.json`, naming `fileName` as its one, universal, file.
    public static func dataSetContents(fileName: String, format: OutputFormat) -> [UInt8] {
        let text = """
            {
              "data" : [
                {
                  "filename" : \(JSONNode.string(fileName).serialized()),
                  "idiom" : "universal",
                  "universal-type-identifier" : "\(typeIdentifier(format))"
                }
              ],
              "info" : {
                "author" : "xcode",
                "version" : 1
              }
            }

            """
        return Array(text.utf8)
    }

    /// Where an output whose template gives `fileName` lands in `catalog` (as written in the
    /// manifest, not yet resolved): `catalog/NAME.dataset/fileName`.
    public static func outputPath(catalog: String, fileName: String) -> String {
        folder(catalog) + "/" + dataSetName(fileName) + ".dataset/" + fileName
    }

    /// NAME of a data set: the file name without its extension.
    public static func dataSetName(_ fileName: String) -> String { PathText.stem(of: fileName) }

    static func folder(_ catalog: String) -> String {
        var c = catalog
        while c.count > 1, c.hasSuffix("/") { c.removeLast() }
        return c
    }

    /// The `Contents.json` files the outputs of catalog jobs need, in output order: each catalog's
    /// own (once, before its first data set) and each data set's, after its file. Two outputs in
    /// one data set (`loader.gif` and `loader.webp` are both `loader`) are refused at the output.
    static func files(_ outputs: [BuildPlan.Output], origin: BuildPlan.Origin) throws(WaveError) -> [BuildPlan.File] {
        var files: [BuildPlan.File] = []
        var catalogs = Set<String>()
        var dataSets: [String: BuildPlan.Output] = [:]
        var problems: [DocumentProblem] = []
        var reported = Set<Int>()
        for o in outputs {
            guard let catalog = o.job.catalog else { continue }
            let root = BuildManifest.resolve(folder(catalog), in: origin.directory)
            if catalogs.insert(BuildPlan.normalised(root)).inserted {
                let path = root + "/Contents.json"
                files.append(BuildPlan.File(job: o.job, path: path, key: OnDisk.landingPath(path), bytes: catalogContents))
            }
            let dataSet = PathText.folder(of: o.path)
            if let earlier = dataSets[BuildPlan.normalised(dataSet)] {
                guard reported.insert(o.job.index).inserted else { continue }
                var a = PathText.lastComponent(of: earlier.path), b = PathText.lastComponent(of: o.path)
                if earlier.job.index != o.job.index { a += " (\(earlier.job.label))"; b += " (\(o.job.label))" }
                let hint = earlier.format != o.format ? "; give each format its own name, e.g. \"{name}-{format}.{format}\"" : ""
                problems.append(DocumentProblem(file: origin.file, line: o.job.outputLine, column: o.job.outputColumn, keyPath: "jobs[\(o.job.index)].output",
                                                message: "\(dataSet) would hold both \(a) and \(b); a data set holds one file\(hint)"))
                continue
            }
            dataSets[BuildPlan.normalised(dataSet)] = o
            let path = dataSet + "/Contents.json"
            files.append(BuildPlan.File(job: o.job, path: path, key: OnDisk.landingPath(path),
                                        bytes: dataSetContents(fileName: PathText.lastComponent(of: o.path), format: o.format)))
        }
        if !problems.isEmpty { throw WaveError(problems) }
        return files
    }
}

extension BuildPlan {
    /// A file the build writes whose bytes are computed rather than rendered: an asset catalog's
    /// `Contents.json`. Written, locked, checked and pruned like an output.
    public struct File: Sendable {
        /// The job that needs it (the first, for a catalog's own `Contents.json`).
        public var job: BuildManifest.Job
        /// The path as shown and written: resolved against the manifest's folder.
        public var path: String
        /// Where the write lands (see `Output.key`).
        public var key: String
        public var bytes: [UInt8]
    }
}
