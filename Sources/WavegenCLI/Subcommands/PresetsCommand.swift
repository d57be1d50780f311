import WavePlatform
import WaveKit
import WaveRender
import WaveBuild

/// `wavegen presets`, `wavegen presets show NAME`, `wavegen presets export NAME [DIR]` and
/// `wavegen presets pack NAME -o FILE`.
enum PresetsCommand: Subcommand {
    static let spec = CommandSpec(
        name: "presets",
        abstract: "List the bundled presets, print a preset's JSON with 'presets show <preset>', write a copy that renders as is with 'presets export <preset> [<dir>]', or pack it into one self-contained file with 'presets pack'.",
        usage: "wavegen presets [show <preset> | export <preset> [<dir>] [--force] | pack <preset> --output <file> [--force]]",
        arguments: [
            ArgumentSpec(name: "show | export | pack", help: "show: print the JSON of <preset>: a bundled preset's own text, or a preset file merged (its extends resolved into plain keys). export: write it as <dir>/<name>.json with the images it uses and schema.json. pack: write one file that holds everything it renders with (see below).",
                         completion: .words(["show", "export", "pack"])),
            ArgumentSpec(name: "<preset>", help: "A bundled preset's name, as 'wavegen presets' lists them, or a preset file.", completion: .presets),
            ArgumentSpec(name: "<dir>", help: "The folder export writes into, created if missing (default: the current folder).", completion: .directories),
        ],
        options: [
            OptionSpec(names: ["--output", "-o"], value: "file", help: "pack: the file to write (NAME.wavegen.json by convention).", completion: .files(["json"])),
            OptionSpec(names: ["--force"], value: nil, help: "export, pack: overwrite files that already exist (else nothing is written and the exit status is 73)."),
        ],
        discussion: """
            A bundled preset is shown and exported as its own text: an exported bundled preset keeps an \
            'extends' by name, which resolves to the bundled parent from any folder, so \
            'wavegen render <dir>/<name>.json' writes the same bytes as 'wavegen render <name>'.
            A preset file (or a pinned bundled name such as orb@1) is shown and exported merged: its \
            'extends' chain resolved as the loader merges it, keys in the schema's order, 2-space \
            indent. Its export (<name> is the file name without .json) no longer depends on the \
            presets it extended; its rider image is copied beside it. A missing file exits 66, a \
            preset that does not load 65, with the problems located in their files.
            'presets pack' writes the merged preset with its rider image and label fonts embedded as \
            data URIs, each font cut down to the glyphs the label can show (its licence, as the font \
            states it, recorded under "embeddedFonts"), with "generator" naming this wavegen and \
            "requires" the release it needs: rendering the packed file anywhere, with no other file \
            and no fonts installed, writes the same bytes as rendering <preset> here. An older \
            wavegen refuses it with one line naming the release it needs. The default label font is \
            built in and not embedded.
            """)

    static func run(_ a: ParsedArguments, console: Console) throws(WaveError) {
        let sources = BundledPresets.sources
        if a.has("--force"), !["export", "pack"].contains(a.positionals.first) { throw .usage("--force applies only to 'presets export' and 'presets pack'") }
        if a.value("--output") != nil, a.positionals.first != "pack" { throw .usage("--output applies only to 'presets pack'") }
        switch a.positionals.first {
        case nil:
            let loader = PresetLoader.standard
            for name in sources.keys.sorted() {
                let description = (try? loader.load(name).description) ?? ""
                console.out(HelpFormatter.row(name, description).dropFirst(2) + "\n")
            }
        case "show":
            guard a.positionals.count == 2 else { throw .usage("presets show needs one preset name") }
            let name = a.positionals[1]
            guard let text = sources[name] else {
                let document = try presetFile(name) { loader throws(WaveError) in try loader.mergedDocument(name) }
                console.out(document.serialized(indent: 2) + "\n")
                return
            }
            console.out(text.hasSuffix("\n") ? text : text + "\n")
            if BundledPresets.refersToFiles(name) {
                console.err("hint: 'wavegen presets export \(name) DIR' writes a copy that renders as is (with its assets and schema.json)\n")
            }
        case "export":
            guard (2...3).contains(a.positionals.count) else { throw .usage("presets export needs one preset name and at most one folder") }
            let name = a.positionals[1]
            let files: [BundledPresets.ExportedFile]
            if let bundled = BundledPresets.exportedFiles(name) {
                files = bundled
            } else {
                files = try presetFile(name) { loader throws(WaveError) in try loader.exportedFiles(name) }
                // Even with --force, the export never replaces the files it reads.
                ProtectedFiles.protectInputs(of: name, overrides: [])
            }
            try export(files, into: a.positionals.count == 3 ? a.positionals[2] : ".", force: a.has("--force"), console: console)
        case "pack":
            guard a.positionals.count == 2 else { throw .usage("presets pack needs one preset name or file") }
            guard let output = a.value("--output") else { throw .usage("missing --output <file> (NAME.wavegen.json)") }
            let name = a.positionals[1]
            if BundledPresets.sources[name] == nil {
                let looksLikePath = name.contains("/") || name.hasSuffix(".json") || name.contains("@")
                if !looksLikePath, !FileSystem.exists(name) { throw noBundled(name) }
                ProtectedFiles.protectInputs(of: name, overrides: [])
            }
            try ProtectedFiles.checkOutput(output)
            if !a.has("--force"), FileSystem.exists(output) {
                throw WaveError(.cannotWrite, ["\(output): already exists; use --force to overwrite it"])
            }
            let packed = try PresetPack.pack(name, generator: "wavegen \(Wavegen.versionDescription)")
            for note in packed.notes { console.err("note: \(note)\n") }
            try AtomicFile.write(Array(packed.text.utf8), to: output)
            console.out("\(output): \(NumberText.bytes(packed.text.utf8.count))\n")
        case let other?:
            let hint = Suggest.closest(to: other, among: ["show", "export", "pack"]).map { " (did you mean '\($0)'?)" } ?? ""
            throw .usage("unknown presets action '\(other)'\(hint) (expected 'show <name>', 'export <name> [<dir>]' or 'pack <name> -o <file>')")
        }
    }

    /// `body` with the standard loader for `reference`, which is not a bundled name: a preset
    /// file, or a versioned bundled name (`orb@1`). A bare word that names neither a file nor a
    /// bundled preset gets the bundled names; a missing file exits 66 and a bad preset 65, with
    /// the problems located in their files.
    static func presetFile<T>(_ reference: String, _ body: (PresetLoader) throws(WaveError) -> T) throws(WaveError) -> T {
        let looksLikePath = reference.contains("/") || reference.hasSuffix(".json") || reference.contains("@")
        if !looksLikePath, !FileSystem.exists(reference) { throw noBundled(reference) }
        return try body(PresetLoader.standard)
    }

    static func noBundled(_ name: String) -> WaveError {
        WaveError(.missingInput, ["\(name): " + PresetLoader.noBundled(name, among: Array(BundledPresets.sources.keys))])
    }

    /// Writes `files` under `folder` (created if missing), each atomically. With `force` false, an
    /// existing file stops the export before anything is written.
    static func export(_ files: [BundledPresets.ExportedFile], into folder: String, force: Bool, console: Console) throws(WaveError) {
        let targets = files.map { (path: folder == "." ? $0.path : PathText.joined(folder, $0.path), bytes: $0.bytes) }
        for target in targets { try ProtectedFiles.checkOutput(target.path) }
        if !force, let existing = targets.first(where: { FileSystem.exists($0.path) }) {
            throw WaveError(.cannotWrite, ["\(existing.path): already exists; use --force to overwrite it"])
        }
        for target in targets {
            try makeFolder(PathText.folder(of: target.path))
            try AtomicFile.write(target.bytes, to: target.path)
            console.out("\(target.path): \(NumberText.bytes(target.bytes.count))\n")
        }
    }

    /// Creates `path` and its parents, if missing.
    static func makeFolder(_ path: String) throws(WaveError) {
        guard !path.isEmpty else { return }
        if let kind = FileSystem.kind(of: path) {
            guard kind == .directory else { throw WaveError(.cannotWrite, ["\(path): cannot write: not a folder"]) }
            return
        }
        do {
            try FileSystem.createDirectory(path)
        } catch {
            let step = error.path == path ? "" : " (at \(error.path))"
            throw WaveError(.cannotWrite, ["\(path): cannot create the folder: \(error.reason)\(step)"])
        }
    }
}
