import WavePlatform

/// Finds, reads and resolves presets: a file path or a bundled name, `extends` chains merged,
/// then decoded into a `WaveConfig`.
public struct PresetLoader: Sendable {
    /// The largest preset file read, in bytes: room for a packed preset's embedded rider image and
    /// fonts (`DataURI.maximumEmbeddedSize` each, a third more as base64).
    public static let maximumFileSize = 16 << 20

    /// The largest rider image file read, in bytes.
    public static let maximumImageFileSize = 32 << 20
    /// The largest font file accepted, in bytes.
    public static let maximumFontFileSize = 64 << 20

    /// Bundled presets by name, JSON text.
    public var bundled: [String: String]
    /// Images the bundled presets use, by path relative to presets/.
    public var bundledAssets: [String: [UInt8]]
    /// Turns an image file's bytes into pixels (PNG through libpng in the command line); nil when
    /// images cannot be read here.
    public var imageDecoder: (@Sendable ([UInt8]) throws(ImageProblem) -> RiderImage)?
    /// Finds the file of a font named by family and style ("DejaVu Sans:bold"; fontconfig in the
    /// command line); nil when fonts can only be named by path here.
    public var fontResolver: (@Sendable (String) throws(FontProblem) -> String)?
    /// Refuses a font file that cannot be opened as a font (FreeType in the command line), so the
    /// problem is reported at the `label.font` that names it; nil when fonts are not checked here.
    public var fontChecker: (@Sendable (LabelFont) throws(FontProblem) -> Void)?
    /// Frozen versions of bundled presets by "NAME@N" (presets/versions/), JSON text.
    public var bundledVersions: [String: String]
    /// The newest bundled preset version `NAME@N` may name (`BundledPresets.formatVersion`).
    public var bundledFormatVersion: Int

    public init(bundled: [String: String] = BundledPresets.sources, bundledAssets: [String: [UInt8]] = BundledPresets.decodedAssets,
                imageDecoder: (@Sendable ([UInt8]) throws(ImageProblem) -> RiderImage)? = nil,
                fontResolver: (@Sendable (String) throws(FontProblem) -> String)? = nil,
                fontChecker: (@Sendable (LabelFont) throws(FontProblem) -> Void)? = nil,
                bundledVersions: [String: String] = BundledPresets.versions,
                bundledFormatVersion: Int = BundledPresets.formatVersion) {
        self.bundled = bundled
        self.bundledVersions = bundledVersions
        self.bundledFormatVersion = bundledFormatVersion
        self.bundledAssets = bundledAssets
        self.imageDecoder = imageDecoder
        self.fontResolver = fontResolver
        self.fontChecker = fontChecker
    }

    /// A preset's JSON with its `extends` chain merged.
    public struct Resolved: Sendable {
        /// The merged document.
        public var root: JSONNode
        /// The files of the chain, the furthest parent first and the preset itself last.
        public var chain: [(file: String, root: JSONNode)]
        /// Which files of the chain are bundled presets.
        public var bundledFiles: Set<String>
        /// The preset's display file name and the name it defaults to.
        public var file: String
        public var defaultName: String
    }

    /// Loads `reference` (a path, or a bundled name) into a config, with `overrides` (key path →
    /// JSON value) applied last. Every problem names the file and position the offending value
    /// came from: a file of the `extends` chain, or the override that set it.
    public func load(_ reference: String, overrides: [PresetOverride] = []) throws(WaveError) -> WaveConfig {
        try loadDocument(reference, overrides: overrides).config
    }

    /// `load`, also returning the merged document the config was decoded from (the `extends`
    /// chain merged and the overrides applied): with the assets it names, everything that
    /// determines the config.
    /// A `theme` override (`--theme`, a manifest's `"theme"`) is not a key: "dark" applies the
    /// preset's `dark` colors after its own values and before every other override.
    public func loadDocument(_ reference: String, overrides: [PresetOverride] = []) throws(WaveError) -> (config: WaveConfig, document: JSONNode) {
        var (config, document) = try loadTheme(reference, overrides: overrides)
        if case .object? = document["dark"]?.value {
            // The other theme's colors, for outputs that carry both (dotLottie): the same load with
            // the theme flipped. A twin that does not load leaves the config with its own colors only.
            let dark = (try? PresetLoader.theme(in: overrides).name) == "dark"
            let flipped = overrides.filter { !$0.isTheme } + (dark ? [] : [PresetOverride.theme("dark")])
            if let twin = try? loadTheme(reference, overrides: flipped).config {
                config.themeColors = ["light": ThemeColors(dark ? twin : config), "dark": ThemeColors(dark ? config : twin)]
            }
        }
        return (config, document)
    }

    /// `loadDocument` in the one theme the overrides choose.
    func loadTheme(_ reference: String, overrides: [PresetOverride]) throws(WaveError) -> (config: WaveConfig, document: JSONNode) {
        var resolved = try resolve(reference)
        var overrides = overrides
        let theme = try PresetLoader.theme(in: overrides)
        overrides.removeAll { $0.isTheme }
        if theme.name == "dark", let chooser = theme.override {
            overrides = try PresetLoader.darkOverrides(resolved, chosenBy: chooser) + overrides
        }
        for o in overrides {
            // Applying a path recurses once per part: deeper paths are refused, not followed.
            guard o.path.components.count <= KeyPathExpression.maximumParts else {
                throw WaveError(o.problem(KeyPathExpression.tooDeep(o.path.components.count), keyPath: ""))
            }
            if o.path.components.first == .key("extends") {
                throw WaveError(o.problem("cannot be overridden; only a preset file extends another"))
            }
            do {
                try resolved.root.set(o.value, at: o.path)
            } catch {
                throw WaveError(o.problem("cannot be set: \(error.message)"))
            }
        }
        if !overrides.isEmpty { resolved.root = resolved.root.removingNullMembers() }
        let images = { (path: String) -> Result<RiderImage, ImageProblem> in
            let source = PresetLoader.fileSource(of: "rider.image", in: resolved, overrides: overrides)
            return Result { () throws(ImageProblem) -> RiderImage in
                try self.image(path, in: source.folder)
            }
        }
        switch WaveConfig.decode(resolved.root, defaultName: resolved.defaultName, images: images) {
        case var .success(config):
            config.file = resolved.file
            if let fonts = config.label?.fonts, !fonts.isEmpty {
                config.label?.fonts = try resolveFonts(fonts, in: resolved, overrides: overrides)
            }
            return (config, resolved.root)
        case let .failure(error):
            throw WaveError(error.problems.map { locate($0, in: resolved, overrides: overrides) })
        }
    }

    /// The fonts `label.font` names, found: a path against the folder of the file (or override)
    /// that wrote it, a family through `fontResolver`; each checked by `fontChecker`, embedded
    /// fonts too. A problem is reported at the entry that names the font.
    func resolveFonts(_ fonts: [LabelFont], in resolved: Resolved, overrides: [PresetOverride]) throws(WaveError) -> [LabelFont] {
        let isList = if case .array? = resolved.root.node(at: [.key("label"), .key("font")])?.value { true } else { false }
        var found: [LabelFont] = []
        for (i, font) in fonts.enumerated() {
            let source = PresetLoader.fileSource(of: isList ? "label.font[\(i)]" : "label.font", in: resolved, overrides: overrides)
            func problem(_ message: String, kind: DocumentProblem.Kind = .invalid) -> WaveError {
                WaveError(source.problem(message, kind))
            }
            var resolvedFont = font
            if case .file = font.source {
                var path = font.name
                if !Label.isFontPath(font.name) {
                    guard let fontResolver else { throw problem("\"\(font.name)\": fonts are named by file path here (a name with a '/' or ending in .ttf, .otf or .ttc)") }
                    do {
                        path = try fontResolver(font.name)
                    } catch {
                        throw problem(error.message, kind: .missingInput)
                    }
                } else if !font.name.hasPrefix("/") {
                    // A bundled preset has no folder to find a font file in.
                    guard let folder = source.folder else {
                        throw problem("\(font.name): a bundled preset has no folder to find this file in; give an absolute path or a family name such as \"DejaVu Sans:bold\"")
                    }
                    path = PresetLoader.path(font.name, in: folder)
                }
                if let reason = BoundedFile.problem(path, kind: "font", limit: PresetLoader.maximumFontFileSize) {
                    throw problem("\(path): \(reason)", kind: .missingInput)
                }
                resolvedFont.source = .file(path)
            }
            if let fontChecker {
                do {
                    try fontChecker(resolvedFont)
                } catch {
                    throw problem(error.message)
                }
            }
            found.append(resolvedFont)
        }
        return found
    }

    /// `problem` (found by key path in the merged document) with the file and position its value
    /// came from: the last override that set it or a value around it, or that made the key when no
    /// file has it; else the last file of the chain that holds it (for a missing key, the object
    /// that should hold it).
    func locate(_ problem: DocumentProblem, in resolved: Resolved, overrides: [PresetOverride]) -> DocumentProblem {
        let path = PresetLoader.components(ofProblemPath: problem.keyPath)
        if let o = overrides.last(where: { !path.isEmpty && path.starts(with: $0.path.components) }) {
            let inside = Array(path.dropFirst(o.path.components.count))
            return o.problem(problem.message, keyPath: o.keyPath(appending: inside), kind: problem.kind, inside: inside)
        }
        if !path.isEmpty, !resolved.chain.contains(where: { $0.root.node(at: path) != nil }),
           let o = overrides.last(where: { $0.path.components.starts(with: path) }) {
            return o.problem(problem.message, keyPath: o.origin.keyPath ?? problem.keyPath, kind: problem.kind)
        }
        let origin = PresetLoader.origin(of: problem.keyPath, in: resolved.chain)
        var located = problem.at(origin.node)
        located.file = origin.file
        return located
    }

    /// Reads `reference` and everything it extends, and merges them: objects key by key, everything
    /// else (arrays included) replaced by the later file. `reading` is told each path on disk just
    /// before it is read (bundled presets are not), so a caller learns the files even when one fails.
    public func resolve(_ reference: String, reading: (String) -> Void = { _ in }) throws(WaveError) -> Resolved {
        var chain: [(file: String, root: JSONNode, bundled: Bool)] = []
        // The files on disk read so far, by identity: the same file reached by another spelling of
        // its path (`./a.json`, `../dir/a.json`, a link) is the same link of the chain.
        var identities: [FileIdentity?] = []
        var next: String? = reference
        var base: String?
        var fromBundle = false
        while let ref = next {
            let file: String, text: [UInt8], bundled: Bool
            do {
                (file, text, bundled) = try read(ref, relativeTo: base, bundledOnly: fromBundle, reading: reading)
            } catch {
                // A missing parent is the extending preset's problem, at its extends key.
                guard let child = chain.last else { throw error }
                let reasons = error.problems.map { "\($0.file): \($0.message)" }.joined(separator: "; ")
                // A parent that cannot be found is missing input; a version that cannot be (orb@2) is a bad value.
                let kind: DocumentProblem.Kind = error.problems.contains { $0.kind == .missingInput } ? .missingInput : .invalid
                throw WaveError(DocumentProblem(file: child.file, keyPath: "extends", message: reasons, kind: kind)
                    .at(child.root["extends"]))
            }
            let identity = bundled ? nil : FileIdentity(path: file)
            if chain.contains(where: { $0.file == file }) || (identity != nil && identities.contains(identity)) {
                let names = (chain.map(\.file) + [file])
                throw WaveError(DocumentProblem(file: chain[0].file, keyPath: "extends", message: "cycle: \(names.joined(separator: " → "))")
                    .at(chain[0].root["extends"]))
            }
            let root: JSONNode
            do {
                root = try JSONParser.parse(text)
            } catch {
                throw WaveError(DocumentProblem(file: file, line: error.line, column: error.column, message: error.message))
            }
            guard case .object = root.value else {
                throw WaveError(DocumentProblem(file: file, message: "expected an object, got \(root.value.kindName)").at(root))
            }
            if case let .string(required)? = root["requires"]?.value, WavegenVersion.isNewer(required) {
                throw WaveError(DocumentProblem(file: file, keyPath: "requires",
                                                    message: "this preset needs wavegen \(required) or newer; this is wavegen \(WavegenVersion.current)")
                    .at(root["requires"]!))
            }
            if chain.isEmpty, BuildManifest.isManifest(root) {
                throw WaveError(DocumentProblem(file: file, message: "this is a build manifest, not a preset; build it with 'wavegen build \(file)'"))
            }
            chain.append((file, root, bundled))
            identities.append(identity)
            switch root["extends"]?.value {
            case let .string(parent)?:
                next = parent
                base = bundled ? nil : PathText.folder(of: file)
                fromBundle = bundled
            case nil:
                next = nil
            case .some:
                // The decoder reports the bad value with its path.
                next = nil
            }
        }
        let ordered = chain.reversed().map { (file: $0.file, root: $0.root) }
        var merged = ordered[0].root
        for link in ordered.dropFirst() { merged = merged.merging(link.root) }
        merged = merged.removingNullMembers()
        // A well-formed extends has done its work; any other value stays for the decoder to report.
        if case .string? = merged["extends"]?.value { merged = merged.removing("extends") }
        let leaf = chain[0]
        let defaultName = leaf.bundled ? leaf.file : PathText.stem(of: leaf.file)
        if leaf.root["name"] == nil {
            merged = merged.merging(JSONNode(.object([("name", JSONNode(.string(defaultName)))])))
        }
        return Resolved(root: merged, chain: ordered, bundledFiles: Set(chain.filter(\.bundled).map(\.file)),
                        file: leaf.file, defaultName: defaultName)
    }

    /// Where a value naming a file (`rider.image`, `label.font`) came from: the folder a relative
    /// path in it resolves against (nil for a bundled preset, which has none), and how to report a
    /// problem with it at that value.
    struct FileSource {
        var folder: String?
        var problem: (String, DocumentProblem.Kind) -> DocumentProblem
    }

    /// The source of the value at `keyPath`: the last override that set it (the command line's
    /// relative paths resolve against the current folder, a manifest's against the manifest's
    /// folder), else the last file of the chain that holds it.
    static func fileSource(of keyPath: String, in resolved: Resolved, overrides: [PresetOverride]) -> FileSource {
        let path = KeyPathExpression(parsing: keyPath)?.components ?? []
        if let o = overrides.last(where: { path.starts(with: $0.path.components) }) {
            let inside = Array(path.dropFirst(o.path.components.count))
            return FileSource(folder: o.origin.folder) { message, kind in
                o.problem(message, keyPath: o.keyPath(appending: inside), kind: kind, inside: inside)
            }
        }
        let origin = PresetLoader.origin(of: keyPath, in: resolved.chain)
        let folder = resolved.bundledFiles.contains(origin.file) ? nil : PathText.folder(of: origin.file)
        return FileSource(folder: folder) { message, kind in
            DocumentProblem(file: origin.file, keyPath: keyPath, message: message, kind: kind).at(origin.node)
        }
    }

    /// `path` as written, or relative to `folder` ("" is the current folder).
    static func path(_ path: String, in folder: String) -> String {
        PathText.joined(folder, path)
    }

    /// Reads and decodes the image at `path`, relative to `folder`, or bundled with the presets
    /// when `folder` is nil.
    func image(_ path: String, in folder: String?) throws(ImageProblem) -> RiderImage {
        guard let decode = imageDecoder else { throw ImageProblem("images cannot be read here") }
        let bytes: [UInt8]
        if DataURI.isDataURI(path) {
            switch DataURI.decode(path, typePrefix: "image/png", kind: "image") {
            case let .success(b): bytes = b
            case let .failure(problem): throw ImageProblem(problem.message)
            }
        } else if let folder {
            let full = PresetLoader.path(path, in: folder)
            do {
                bytes = try BoundedFile.read(full, limit: PresetLoader.maximumImageFileSize, kind: "image")
            } catch {
                throw ImageProblem("\(full): \(error.problems.map(\.message).joined(separator: "; "))", missingInput: true)
            }
        } else {
            guard let b = bundledAssets[path] else { throw ImageProblem("\"\(path)\" is not an image bundled with the presets") }
            bytes = b
        }
        do {
            return try decode(bytes)
        } catch {
            throw ImageProblem("\(DataURI.isDataURI(path) ? "the embedded image" : path): \(error.message)")
        }
    }

    /// The last file of `chain` that holds the value at `path`, and that value; for a missing key,
    /// the nearest enclosing value. The preset itself and its root when nothing on the path is there.
    static func origin(of path: String, in chain: [(file: String, root: JSONNode)]) -> (file: String, node: JSONNode) {
        let leaf = chain[chain.count - 1]
        let components = PresetLoader.components(ofProblemPath: path)
        for length in stride(from: components.count, to: 0, by: -1) {
            let prefix = Array(components.prefix(length))
            for link in chain.reversed() {
                if let node = link.root.node(at: prefix) { return (link.file, node) }
            }
        }
        return (leaf.file, leaf.root)
    }

    /// The file's display name, its text, and whether it is a bundled preset.
    private func read(_ reference: String, relativeTo base: String?, bundledOnly: Bool,
                      reading: (String) -> Void) throws(WaveError) -> (String, [UInt8], Bool) {
        if !bundledOnly {
            let path = reference.hasPrefix("/") ? reference : base.map { PresetLoader.join($0, reference) } ?? reference
            let looksLikePath = reference.contains("/") || reference.hasSuffix(".json")
            let kind = FileSystem.kind(of: path)
            let exists = kind != nil
            // A file of that name wins over a bundled preset; a folder of that name does not.
            if looksLikePath || (exists && kind != .directory) || (exists && bundled[reference] == nil) {
                reading(path)
                return (path, try BoundedFile.read(path, limit: PresetLoader.maximumFileSize), false)
            }
        }
        let versioned = bundled[reference] == nil ? try versionedBundledText(reference) : nil
        if let text = bundled[reference] ?? versioned {
            return (reference, Array(text.utf8), true)
        }
        throw WaveError(DocumentProblem(file: reference, message: "no such file and \(PresetLoader.noBundled(reference, among: Array(bundled.keys)))",
                                            kind: .missingInput))
    }

    /// `reference` (relative) in the folder `base`, without the `.` and empty components the two
    /// may hold: `presets/.` and `./a.json` give `presets/a.json`, so a chain that goes round by
    /// `./` names each file as the first one did. `..` stays (it may leave a linked folder).
    static func join(_ base: String, _ reference: String) -> String {
        guard !reference.isEmpty else { return base.isEmpty ? reference : base + "/" }
        let parts = (base + "/" + reference).split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        let joined = (base.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
        // A trailing slash says the name must be a folder; it stays.
        if joined.isEmpty { return reference.hasSuffix("/") ? "./" : "." }
        return reference.hasSuffix("/") && joined != "/" ? joined + "/" : joined
    }

    /// "no bundled preset of that name (did you mean "classic"?; bundled: …)".
    public static func noBundled(_ name: String, among names: [String]) -> String {
        let guess = KeyAdvice.closest(to: name, among: names, ignoringCase: true) { max(1, $0.count / 3) }
        return "no bundled preset of that name (\(guess.map { "did you mean \"\($0)\"?; " } ?? "")bundled: \(names.sorted().joined(separator: ", ")))"
    }
}

extension JSONNode {
    /// The value at a key path, or the deepest value on the way there.
    func nearest(at components: [KeyPathExpression.Component]) -> JSONNode {
        for length in stride(from: components.count, to: 0, by: -1) {
            if let node = node(at: Array(components.prefix(length))) { return node }
        }
        return self
    }

    /// The value at a key path, if there is one.
    func node(at components: [KeyPathExpression.Component]) -> JSONNode? {
        var current = self
        for c in components {
            switch (c, current.value) {
            case let (.key(k), .object):
                guard let next = current[k] else { return nil }
                current = next
            case let (.index(i), .array(items)):
                guard i < items.count else { return nil }
                current = items[i]
            default:
                return nil
            }
        }
        return current
    }
}

/// One override of a preset value: `--set key.path=value` on the command line, or an entry of a
/// manifest job's `set`, `variants`, `scales` or `levels`.
public struct PresetOverride: Sendable, Equatable {
    public var path: KeyPathExpression
    public var value: JSONNode
    /// Where the override was given, for messages: the command line unless set otherwise.
    public var origin = Origin.commandLine

    /// Where an override was given: a file (`--set` for the command line), the override's key path
    /// in it and its position.
    public struct Origin: Sendable, Equatable {
        public var file: String
        /// The override's key path in `file` (`jobs[0].set.layers[0].color`); nil when the override
        /// is named by the preset key path it sets, as on the command line.
        public var keyPath: String?
        /// The 1-based position of the override's value in `file`, 0 when there is none.
        public var line: Int
        public var column: Int

        public init(file: String, keyPath: String? = nil, line: Int = 0, column: Int = 0) {
            self.file = file
            self.keyPath = keyPath
            self.line = line
            self.column = column
        }

        /// `--set` and its shortcuts.
        public static let commandLine = Origin(file: "--set")

        /// The folder a relative file path given here resolves against: the current folder ("")
        /// for the command line (an option such as `--set`), else the folder of `file`.
        public var folder: String {
            file.hasPrefix("-") ? "" : PathText.folder(of: file)
        }
    }

    public init(path: KeyPathExpression, value: JSONNode, origin: Origin = .commandLine) {
        self.path = path
        self.value = value
        self.origin = origin
    }

    /// An override of a top-level key (a plain name, such as "scale").
    public init(_ key: String, _ value: JSONNode, origin: Origin = .commandLine) {
        self.init(path: KeyPathExpression(components: [.key(key)]), value: value, origin: origin)
    }

    /// Parses `layers[0].color=#FF0000`; the value is JSON when it parses as JSON, else a string.
    public init?(parsing text: String) {
        guard let eq = text.firstIndex(of: "="), let path = KeyPathExpression(parsing: String(text[..<eq])) else { return nil }
        let raw = String(text[text.index(after: eq)...])
        self.path = path
        // JSON when it parses; a number JSON does not allow (".5") as that number; else a string.
        if let json = try? JSONParser.parse(raw) {
            value = json
        } else if let n = Double(raw), n.isFinite {
            value = JSONNode(.number(n))
        } else {
            value = JSONNode(.string(raw))
        }
    }

    /// The key path a problem `inside` the overridden value is shown at: the override's own key
    /// path in its source (or the preset key path it sets) followed by the rest.
    func keyPath(appending inside: [KeyPathExpression.Component]) -> String {
        let rest = KeyPathExpression(components: inside).description
        guard let base = origin.keyPath else { return KeyPathExpression(components: path.components + inside).description }
        if rest.isEmpty { return base }
        return rest.hasPrefix("[") ? base + rest : base + "." + rest
    }

    /// A problem with this override, at `keyPath` (the override's own by default) and at the
    /// position of the value `inside` it when the override comes from a file.
    func problem(_ message: String, keyPath: String? = nil, kind: DocumentProblem.Kind = .invalid,
                 inside: [KeyPathExpression.Component] = []) -> DocumentProblem {
        let problem = DocumentProblem(file: origin.file, line: origin.line, column: origin.column,
                                      keyPath: keyPath ?? self.keyPath(appending: []), message: message, kind: kind)
        guard origin.line > 0 else { return problem }
        return problem.at(value.nearest(at: inside))
    }
}

/// A key path into a preset: `layers[0].color`.
public struct KeyPathExpression: Sendable, Equatable, CustomStringConvertible {
    public enum Component: Sendable, Equatable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    public init(components: [Component]) {
        self.components = components
    }

    /// The most parts (keys and indices) a path may have where presets are overridden.
    public static let maximumParts = 64

    /// The message for a path of `parts` parts, over `maximumParts`.
    public static func tooDeep(_ parts: Int) -> String {
        "a key path may have at most \(maximumParts) parts, got \(parts)"
    }

    public init?(parsing text: String) {
        var components: [Component] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(part)
            guard let nameEnd = rest.firstIndex(of: "[") ?? Optional(rest.endIndex) else { return nil }
            let name = rest[..<nameEnd]
            guard !name.isEmpty else { return nil }
            components.append(.key(String(name)))
            rest = rest[nameEnd...]
            while rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]"), let i = Int(rest[rest.index(after: rest.startIndex)..<close]), i >= 0 else { return nil }
                components.append(.index(i))
                rest = rest[rest.index(after: close)...]
            }
            guard rest.isEmpty else { return nil }
        }
        guard !components.isEmpty else { return nil }
        self.components = components
    }

    public var description: String {
        var s = ""
        for c in components {
            switch c {
            case let .key(k): s += s.isEmpty ? k : "." + k
            case let .index(i): s += "[\(i)]"
            }
        }
        return s
    }
}

public struct OverrideError: Error { public var message: String }

extension JSONNode {
    /// `self` with `other`'s members merged in: objects merge key by key, everything else (arrays included) replaces.
    func merging(_ other: JSONNode) -> JSONNode {
        guard case var .object(mine) = value, case let .object(theirs) = other.value else { return other }
        for (key, node) in theirs {
            if let i = mine.firstIndex(where: { $0.key == key }) {
                mine[i].value = mine[i].value.merging(node)
            } else {
                mine.append((key, node))
            }
        }
        return JSONNode(.object(mine), line: line, column: column)
    }

    /// `self` without the object members whose value is `null`, at every depth: a `null` in a
    /// preset or an override leaves the key out, so an inherited value gives way to the default.
    /// Array elements are kept (a `null` there is for the decoder to refuse).
    func removingNullMembers() -> JSONNode {
        switch value {
        case let .object(members):
            let kept = members.filter { if case .null = $0.value.value { return false } else { return true } }
            return JSONNode(.object(kept.map { ($0.key, $0.value.removingNullMembers()) }), line: line, column: column)
        case let .array(items):
            return JSONNode(.array(items.map { $0.removingNullMembers() }), line: line, column: column)
        default:
            return self
        }
    }

    func removing(_ key: String) -> JSONNode {
        guard case let .object(members) = value else { return self }
        return JSONNode(.object(members.filter { $0.key != key }), line: line, column: column)
    }

    public mutating func set(_ newValue: JSONNode, at path: KeyPathExpression) throws(OverrideError) {
        try set(newValue, components: path.components[...])
    }

    private mutating func set(_ newValue: JSONNode, components: ArraySlice<KeyPathExpression.Component>) throws(OverrideError) {
        guard let first = components.first else { self = newValue; return }
        let rest = components.dropFirst()
        switch first {
        case let .key(k):
            if case .null = value { value = .object([]) }
            guard case var .object(members) = value else { throw OverrideError(message: "\"\(k)\" is inside \(value.kindName)") }
            if let i = members.firstIndex(where: { $0.key == k }) {
                try members[i].value.set(newValue, components: rest)
            } else {
                var child = JSONNode(.null)
                try child.set(newValue, components: rest)
                members.append((k, child))
            }
            value = .object(members)
        case let .index(i):
            guard case var .array(items) = value else { throw OverrideError(message: "[\(i)] is not inside an array") }
            guard i < items.count else { throw OverrideError(message: "index \(i) is out of range (there are \(items.count))") }
            try items[i].set(newValue, components: rest)
            value = .array(items)
        }
    }
}
