import WavePlatform

/// Reads a manifest's JSON tree into jobs, collecting every problem with its key path and position.
struct ManifestReader {
    /// The manifest file, named in every problem and in the origin of every override.
    let file: String
    private(set) var problems: [DocumentProblem] = []

    init(file: String) {
        self.file = file
    }

    mutating func fail(_ path: String, _ node: JSONNode, _ message: String) {
        problems.append(DocumentProblem(file: file, keyPath: path, message: message).at(node))
    }

    /// The allowed word closest to `word`, when close enough to be a likely typo.
    static func suggestion(for word: String, among allowed: [String]) -> String? {
        KeyAdvice.closest(to: word, among: allowed) { max(2, $0.count / 3) }
    }

    /// Reports members not in `allowed` (keys starting with `$` or `_` are always allowed).
    mutating func checkKeys(_ node: JSONNode, at path: String, allowed: [String]) {
        guard case let .object(members) = node.value else { return }
        for member in members where !allowed.contains(member.key) && !KeyAdvice.isAnnotation(member.key) {
            let keyPath = path.isEmpty ? member.key : path + "." + member.key
            fail(keyPath, member.value, KeyAdvice.unknownKey(member.key, allowed: allowed, suggest: ManifestReader.suggestion))
        }
    }

    func describe(_ node: JSONNode) -> String { node.brief }

    func members(_ node: JSONNode) -> [(key: String, value: JSONNode)] {
        guard case let .object(m) = node.value else { return [] }
        return m.filter { !KeyAdvice.isAnnotation($0.key) }
    }

    mutating func manifest(_ root: JSONNode, directory: String) -> [BuildManifest.Job] {
        guard case .object = root.value else {
            fail("", root, "expected an object with a \"jobs\" array, got \(root.value.kindName)")
            return []
        }
        checkKeys(root, at: "", allowed: BuildManifest.topLevelKeys)
        guard let jobsNode = root["jobs"] else {
            fail("jobs", root, "is required: a list of jobs, each with a \"preset\" and an \"output\"")
            return []
        }
        guard case let .array(items) = jobsNode.value else {
            fail("jobs", jobsNode, "expected an array of jobs, got \(describe(jobsNode))")
            return []
        }
        if items.isEmpty { fail("jobs", jobsNode, "is empty; list at least one job") }
        var jobs: [BuildManifest.Job] = []
        var total = 0
        for (i, item) in items.enumerated() {
            guard let job = self.job(item, index: i, directory: directory) else { continue }
            // Jobs past the limit are still read for their own problems, but not kept: nothing
            // expands more than the limit's outputs, even to check presets.
            guard total <= BuildManifest.maximumOutputs else { continue }
            let count = ManifestReader.outputCount(job)
            total += count
            if total > BuildManifest.maximumOutputs {
                fail("jobs[\(i)]", item, "brings the manifest to \(total) outputs (\(total - count) before it, \(count) of its own); "
                    + "at most \(BuildManifest.maximumOutputs) are allowed in one manifest: split it into several manifests")
                continue
            }
            jobs.append(job)
        }
        return jobs
    }

    /// How many outputs `job` makes: its variants × levels × scales × formats. Each factor is at
    /// most the size of a list in a file of bounded size, so the product does not overflow.
    static func outputCount(_ job: BuildManifest.Job) -> Int {
        (job.variants?.count ?? 1) * (job.levels?.count ?? 1) * (job.scales?.count ?? 1) * (job.formats?.count ?? 1)
    }

    /// Refuses a job whose matrix alone makes more outputs than a manifest may have, naming its axes.
    private mutating func checkOutputCount(_ job: BuildManifest.Job, node: JSONNode) -> Bool {
        let count = ManifestReader.outputCount(job)
        guard count > BuildManifest.maximumOutputs else { return true }
        func axis(_ n: Int?, _ noun: String) -> String { NumberText.count(n ?? 1, noun) }
        fail("jobs[\(job.index)]", node, "makes \(count) outputs (\(axis(job.variants?.count, "variant")) × \(axis(job.levels?.count, "level")) × "
            + "\(axis(job.scales?.count, "scale")) × \(axis(job.formats?.count, "format"))); "
            + "at most \(BuildManifest.maximumOutputs) are allowed in one manifest")
        return false
    }

    private mutating func job(_ node: JSONNode, index: Int, directory: String) -> BuildManifest.Job? {
        let path = "jobs[\(index)]"
        guard case .object = node.value else {
            fail(path, node, "expected a job object, got \(describe(node))")
            return nil
        }
        let before = problems.count
        checkKeys(node, at: path, allowed: BuildManifest.jobKeys)

        var name: String?
        if let n = node["name"] {
            if case let .string(s) = n.value, !s.isEmpty { name = s } else { fail(path + ".name", n, "expected a non-empty string, got \(describe(n))") }
        }
        var presetText = ""
        if let p = node["preset"] {
            if case let .string(s) = p.value, !s.isEmpty { presetText = s } else { fail(path + ".preset", p, "expected a preset file or bundled name, got \(describe(p))") }
        } else {
            fail(path + ".preset", node, "is required: a preset file (relative to the manifest) or a bundled preset's name")
        }

        let formats = node["formats"].flatMap { self.formats($0, at: path + ".formats") }
        let scales = node["scales"].flatMap { self.scales($0, at: path + ".scales") }
        let levels = node["levels"].flatMap { self.levels($0, at: path + ".levels") }
        let variants = node["variants"].flatMap { self.variants($0, at: path + ".variants") }
        let overrides = node["set"].map { self.overrides($0, at: path + ".set") } ?? []
        var budget = node["maxBytes"].map { self.budget($0, at: path + ".maxBytes") } ?? BuildManifest.Budget()
        if let f = node["fit"] {
            if case let .bool(b) = f.value {
                budget.fit = b
                if b, node["maxBytes"] == nil { fail(path + ".fit", f, "fits outputs to their \"maxBytes\", but the job has none (add \"maxBytes\": 40000)") }
            } else {
                fail(path + ".fit", f, "expected true (fit outputs over \"maxBytes\" by turning quality knobs) or false, got \(describe(f))")
            }
        }

        var android = false
        if let a = node["android"] {
            if case let .bool(b) = a.value { android = b } else {
                fail(path + ".android", a, "expected true (every output's file name must be an Android resource name) or false, got \(describe(a))")
            }
        }

        var live = false
        if let l = node["live"] {
            if case let .bool(b) = l.value { live = b } else {
                fail(path + ".live", l, "expected true (write live SVGs, whose level the page sets) or false, got \(describe(l))")
            }
            if live, budget.fit { fail(path + ".live", l, "has nothing for \"fit\" to turn; drop \"fit\"") }
        }

        var catalog: String?
        if let c = node["catalog"] {
            if case let .string(text) = c.value, text.hasSuffix(".xcassets") || text.hasSuffix(".xcassets/"), !text.contains("{"),
               text.split(separator: "/").last.map({ $0 != ".xcassets" }) ?? false {
                catalog = text
            } else {
                fail(path + ".catalog", c, "expected an Xcode asset catalog folder such as \"Loaders.xcassets\" (relative to the manifest), got \(describe(c))")
            }
        }

        var template: OutputTemplate?
        var outputNode = node
        if let o = node["output"] {
            outputNode = o
            if case let .string(s) = o.value, !s.isEmpty {
                switch OutputTemplate.parse(s) {
                case let .success(t): template = t
                case let .failure(e): fail(path + ".output", o, e.description)
                }
            } else {
                fail(path + ".output", o, "expected an output path template such as \"out/{name}{scale}.{format}\", got \(describe(o))")
            }
        } else {
            fail(path + ".output", node, "is required: the output path template, e.g. \"out/{name}{scale}.{format}\"")
        }

        if let t = template {
            if t.uses(.variant), variants == nil, node["variants"] == nil {
                fail(path + ".output", outputNode, "uses {variant} but the job has no \"variants\"")
            }
            if t.uses(.level), levels == nil, node["levels"] == nil {
                fail(path + ".output", outputNode, "uses {level} but the job has no \"levels\"")
            }
            if t.uses(.density), let scales, let items = node["scales"], case let .array(nodes) = items.value {
                for (k, scale) in scales.enumerated() where OutputTemplate.densityText(scale) == nil {
                    fail("\(path).scales[\(k)]", nodes[k], "\(nodes[k].brief) has no Android density, and the output uses {density}; "
                        + "the scales {density} names are \(OutputTemplate.densityList)")
                }
            }
            if node["catalog"] != nil, t.source.contains("/") {
                fail(path + ".output", outputNode, "with \"catalog\", the output is a file name only, such as \"{name}{scale}.{format}\": each file goes to its own data set, NAME.dataset, in the catalog")
            }
            if t.uses(.format), formats == nil, node["formats"] == nil {
                fail(path + ".output", outputNode, "uses {format} but the job has no \"formats\" (add \"formats\": [\"gif\", \"webp\"])")
            }
            if !t.uses(.format) {
                let ext = t.literalExtension
                let fromExt = ext.flatMap { OutputFormat(fileExtension: $0) }
                if node["formats"] == nil, fromExt == nil {
                    fail(path + ".output", outputNode, "cannot tell the format: end the output with \(OutputFormat.extensionList), or add \"formats\" and use {format}")
                }
                if let fromExt, let formats, let other = formats.first(where: { $0 != fromExt }) {
                    fail(path + ".output", outputNode, "ends in .\(ext!) but \"formats\" includes \(other.rawValue); end it with .{format}")
                }
            }
        }
        let fromExtension = template?.literalExtension.flatMap { OutputFormat(fileExtension: $0) }
        if live, let l = node["live"], let other = (formats ?? fromExtension.map { [$0] } ?? []).first(where: { $0 != .svg }) {
            fail(path + ".live", l, "writes live SVGs only, but the job writes \(other.name); give it \"formats\": [\"svg\"] and move the others to a job of their own")
        }
        guard problems.count == before, let template else { return nil }
        var job = BuildManifest.Job(
            index: index, name: name ?? presetText, presetText: presetText,
            preset: BuildManifest.presetReference(presetText, in: directory),
            output: template, outputLine: outputNode.line, outputColumn: outputNode.column,
            formats: formats ?? fromExtension.map { [$0] }, scales: scales, levels: levels,
            variants: variants, overrides: overrides, budget: budget)
        job.android = android
        job.catalog = catalog
        job.live = live
        job.presetLine = node["preset"]?.line ?? 0
        job.presetColumn = node["preset"]?.column ?? 0
        return checkOutputCount(job, node: node) ? job : nil
    }

    private mutating func nonEmptyArray(_ node: JSONNode, at path: String, of what: String) -> [JSONNode]? {
        guard case let .array(items) = node.value else {
            fail(path, node, "expected an array of \(what), got \(describe(node))")
            return nil
        }
        if items.isEmpty {
            fail(path, node, "is empty; leave the key out instead")
            return nil
        }
        return items
    }

    /// The items of a list read by `value`; an item it refuses is reported with `problem`, and an
    /// item listed twice is reported too. Nil when any item was reported.
    private mutating func uniqueItems<T: Hashable>(_ items: [JSONNode], at path: String, value: (JSONNode) -> T?,
                                                   problem: (JSONNode) -> String) -> [T]? {
        var result: [T] = []
        // A set, so a list as long as the file allows is checked in linear time.
        var seen = Set<T>()
        var ok = true
        for (i, item) in items.enumerated() {
            guard let v = value(item) else {
                fail("\(path)[\(i)]", item, problem(item))
                ok = false
                continue
            }
            if !seen.insert(v).inserted { fail("\(path)[\(i)]", item, "\(item.brief) is listed twice"); ok = false }
            result.append(v)
        }
        return ok ? result : nil
    }

    private mutating func formats(_ node: JSONNode, at path: String) -> [OutputFormat]? {
        guard let items = nonEmptyArray(node, at: path, of: "formats (\"gif\", \"webp\", \"svg\", \"lottie\")") else { return nil }
        return uniqueItems(items, at: path, value: { item in
            if case let .string(s) = item.value { return OutputFormat(rawValue: s) }
            return nil
        }, problem: { item in
            if case let .string(s) = item.value, let guess = ManifestReader.suggestion(for: s.lowercased(), among: OutputFormat.allCases.map(\.rawValue)) {
                return "\(item.brief) is not a format (did you mean \"\(guess)\"?)"
            }
            return "\(item.brief) is not a format (expected " + OutputFormat.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") + ")"
        })
    }

    private mutating func scales(_ node: JSONNode, at path: String) -> [Double]? {
        guard let items = nonEmptyArray(node, at: path, of: "scales such as [1, 2, 3]") else { return nil }
        return uniqueItems(items, at: path, value: { item in
            if case let .number(n) = item.value, n > 0, n <= 16 { return n }
            return nil
        }, problem: { "must be a number greater than 0 and at most 16, got \($0.brief)" })
    }

    private mutating func levels(_ node: JSONNode, at path: String) -> [Double]? {
        if case .object = node.value {
            checkKeys(node, at: path, allowed: BuildManifest.levelRangeKeys)
            let before = problems.count
            func number(_ key: String, default value: Double?, in range: ClosedRange<Double>, positive: Bool = false) -> Double? {
                guard let n = node[key] else {
                    if value == nil { fail(path + "." + key, node, "is required") }
                    return value
                }
                guard case let .number(v) = n.value, range.contains(v), !positive || v > 0 else {
                    let low = positive ? "greater than 0" : "at least \(JSONNode(.number(range.lowerBound)).serialized())"
                    fail(path + "." + key, n, "must be a number \(low) and at most \(JSONNode(.number(range.upperBound)).serialized()), got \(describe(n))")
                    return nil
                }
                return v
            }
            let from = number("from", default: 0, in: 0...1)
            let to = number("to", default: 1, in: 0...1)
            let step = number("step", default: nil, in: 0...1, positive: true)
            guard problems.count == before, let from, let to, let step else { return nil }
            guard from <= to else {
                fail(path, node, "\"from\" (\(describe(node["from"]!))) is above \"to\" (\(describe(node["to"] ?? JSONNode(.number(1)))))")
                return nil
            }
            // A tiny step makes a count far beyond Int: checked as a number before it becomes one.
            let steps = ((to - from) / step + 1e-9).rounded(.down)
            guard steps < Double(BuildManifest.maximumLevels) else {
                let count = steps + 1 < 1e15 ? NumberText.exact(steps + 1) : "more than 1000000000000000"
                fail(path, node, "makes \(count) levels; at most \(BuildManifest.maximumLevels) are allowed")
                return nil
            }
            let count = Int(steps) + 1
            return (0..<count).map { k in ((from + Double(k) * step) * 1e9).rounded() / 1e9 }
        }
        guard let items = nonEmptyArray(node, at: path, of: "levels between 0 and 1, or { \"from\", \"to\", \"step\" }") else { return nil }
        return uniqueItems(items, at: path, value: { item in
            if case let .number(n) = item.value, (0...1).contains(n) { return n }
            return nil
        }, problem: { "must be a number between 0 and 1, got \($0.brief)" })
    }

    private mutating func variants(_ node: JSONNode, at path: String) -> [BuildManifest.Variant]? {
        guard case .object = node.value else {
            fail(path, node, "expected an object of variant name → overrides, e.g. {\"dark\": {\"background\": \"#121212\"}}, got \(describe(node))")
            return nil
        }
        let entries = members(node)
        if entries.isEmpty {
            fail(path, node, "is empty; leave the key out instead")
            return nil
        }
        let before = problems.count
        var result: [BuildManifest.Variant] = []
        for (name, value) in entries {
            let keyPath = path + "." + name
            if name.isEmpty || name.contains("/") || name.contains("{") || name.contains("}") || name.contains("\\") {
                fail(keyPath, value, "a variant name must be non-empty and may not contain /, \\, { or }")
            }
            guard case .object = value.value else {
                fail(keyPath, value, "expected an object of preset key path → value (use {} for the preset as it is), got \(describe(value))")
                continue
            }
            result.append(BuildManifest.Variant(name: name, overrides: overrides(value, at: keyPath)))
        }
        return problems.count == before ? result : nil
    }

    /// An object of preset key path → JSON value.
    mutating func overrides(_ node: JSONNode, at path: String) -> [PresetOverride] {
        guard case .object = node.value else {
            fail(path, node, "expected an object of preset key path → value, e.g. {\"layers[0].color\": \"#18FFFF\"}, got \(describe(node))")
            return []
        }
        var result: [PresetOverride] = []
        for (key, value) in members(node) {
            guard let keyPath = KeyPathExpression(parsing: key) else {
                fail(path + "." + key, value, "\"\(key)\" is not a preset key path (expected e.g. background or layers[0].color)")
                continue
            }
            guard keyPath.components.count <= KeyPathExpression.maximumParts else {
                fail(path, value, KeyPathExpression.tooDeep(keyPath.components.count))
                continue
            }
            let origin = PresetOverride.Origin(file: file, keyPath: path + "." + key, line: value.line, column: value.column)
            result.append(PresetOverride(path: keyPath, value: value, origin: origin))
        }
        return result
    }

    private mutating func budget(_ node: JSONNode, at path: String) -> BuildManifest.Budget {
        func limit(_ n: JSONNode, at path: String) -> Int? {
            guard case let .number(v) = n.value, v == v.rounded(), v >= 1, v < 1e15 else {
                fail(path, n, "expected a whole number of bytes (at least 1), got \(describe(n))")
                return nil
            }
            return Int(v)
        }
        switch node.value {
        case .number:
            return BuildManifest.Budget(all: limit(node, at: path))
        case .object:
            checkKeys(node, at: path, allowed: OutputFormat.allCases.map(\.rawValue))
            var budget = BuildManifest.Budget()
            for f in OutputFormat.allCases {
                if let n = node[f.rawValue], let v = limit(n, at: path + "." + f.rawValue) { budget.perFormat[f] = v }
            }
            return budget
        default:
            fail(path, node, "expected a number of bytes, or {\"gif\": bytes, \"webp\": bytes}, got \(describe(node))")
            return BuildManifest.Budget()
        }
    }
}
