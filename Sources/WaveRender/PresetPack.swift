import WaveKit
import WaveText

/// One self-contained preset file that renders anywhere as its source renders here: the `extends`
/// chain merged into plain keys, the rider image and the label fonts embedded as data URIs (each
/// font cut down to the glyphs the label can show, `FontSubset`), what wrote it (`generator`), the
/// release it needs (`requires`) and where its fonts came from with their licences
/// (`embeddedFonts`). The built-in default font is not embedded: every release that reads a packed
/// preset has it.
public enum PresetPack {
    /// A packed preset's text, and notes for the person packing it.
    public struct Packed: Sendable {
        public var text: String
        public var notes: [String]
    }

    /// Packs `reference` (a preset file or a bundled name); `generator` names the wavegen that
    /// packs it ("wavegen 0.1.0 (abc1234)").
    public static func pack(_ reference: String, generator: String, loader: PresetLoader = .standard) throws(WaveError) -> Packed {
        let config = try loader.load(reference)
        let merged = try loader.mergedDocument(reference)
        let rider = config.rider == nil ? nil : try loader.riderImageBytes(reference)
        guard case var .object(members) = merged.value else { throw WaveError(config, "the preset is not an object") }
        members.removeAll { ["$schema", "generator", "requires", "embeddedFonts"].contains($0.key) }
        var root = JSONNode(.object(members))
        var notes: [String] = []
        if let rider {
            guard rider.count <= DataURI.maximumEmbeddedSize else {
                throw WaveError(config, "the image is \(rider.count) bytes; a packed preset embeds at most \(DataURI.maximumEmbeddedSize)", keyPath: "rider.image")
            }
            try? root.set(JSONNode(.string(DataURI.encode(rider, mediaType: "image/png"))), at: KeyPathExpression(components: [.key("rider"), .key("image")]))
        }
        var fontRecords: [JSONNode] = []
        if let label = config.label, !label.fonts.isEmpty {
            let packed = try packFonts(label, config: config)
            let uris = packed.map { JSONNode(.string(DataURI.encode($0.bytes, mediaType: "font/ttf"))) }
            try? root.set(uris.count == 1 ? uris[0] : JSONNode(.array(uris)), at: KeyPathExpression(components: [.key("label"), .key("font")]))
            fontRecords = packed.map(\.record)
            notes += packed.compactMap(\.note)
        }
        root.setMember("generator", JSONNode(.string(generator)))
        root.setMember("requires", JSONNode(.string(WavegenVersion.current)))
        if !fontRecords.isEmpty { root.setMember("embeddedFonts", JSONNode(.array(fontRecords))) }
        return Packed(text: PresetLoader.writtenOrder(root).serialized(indent: 2) + "\n", notes: notes)
    }

    /// Every character the label of a preset can show, whatever its level: the text's own
    /// characters, and for `{percent}` or `{level}` every digit and the decimal point.
    public static func characters(of label: Label, texts: [String]) -> [Unicode.Scalar] {
        var literal = label.template.replacingAll("{percent}", with: "").replacingAll("{level}", with: "")
        if literal != label.template { literal += "0123456789." }
        var seen = Set<Unicode.Scalar>()
        return (Array(literal.unicodeScalars) + texts.flatMap(\.unicodeScalars)).filter { seen.insert($0).inserted }
    }

    struct PackedFont {
        var bytes: [UInt8]
        var record: JSONNode
        var note: String?
    }

    /// Each label font cut down to the glyphs it draws, checked to draw every text of the loop as
    /// the original does (masks and outlines).
    static func packFonts(_ label: Label, config: WaveConfig) throws(WaveError) -> [PackedFont] {
        /// `body`, a failure of FreeType or of cutting a font reported at `keyPath`.
        func text<T>(_ keyPath: String, _ body: () throws(TextError) -> T) throws(WaveError) -> T {
            do { return try body() } catch { throw WaveError(config, error.message, keyPath: keyPath) }
        }
        let plan = try RenderPipeline().plan(config)
        let counts = Set([plan.frameCount] + OutputFormat.allCases.map { plan.timing(for: $0).frameCount }).sorted()
        let texts = LabelTexts.texts(of: label, level: config.level, frameCounts: counts)
        let scalars = characters(of: label, texts: texts)
        let originals = label.fonts.map(\.data)
        let drawnBy = try text("label.font") { () throws(TextError) in try TextRasterizer.glyphs(for: scalars, fonts: originals) }
        var packed: [PackedFont] = []
        for (i, font) in label.fonts.enumerated() {
            let keyPath = label.fonts.count == 1 ? "label.font" : "label.font[\(i)]"
            let bytes: [UInt8]
            switch font.source {
            case let .embedded(b): bytes = b
            case let .file(path):
                do { bytes = try BoundedFile.read(path, limit: PresetLoader.maximumFontFileSize, kind: "font") } catch {
                    throw WaveError(config, error.problems.map(\.message).joined(separator: "; "), keyPath: keyPath, kind: .missingInput)
                }
            }
            let keep = Set(drawnBy.compactMap { $0?.font == i ? $0?.glyph : nil })
            var cut: [UInt8]
            var note: String?
            do throws(TextError) {
                cut = try FontSubset.subset(bytes, keeping: keep)
            } catch {
                // Not a TrueType-outline font (CFF): embedded whole, when it is a single font.
                guard String(decoding: bytes.prefix(4), as: UTF8.self) != "ttcf" else {
                    throw WaveError(config, "\(font.displayName): \(error.message); a collection (.ttc) of such fonts cannot be packed", keyPath: keyPath)
                }
                cut = bytes
                note = "\(font.displayName): embedded whole (\(error.message))"
            }
            guard cut.count <= DataURI.maximumEmbeddedSize else {
                throw WaveError(config, "\(font.displayName): the font is \(cut.count) bytes cut down to the label's \(keep.count) glyphs; a packed preset embeds at most \(DataURI.maximumEmbeddedSize)", keyPath: keyPath)
            }
            let drawn = drawnBy.filter { $0?.font == i }.count
            packed.append(PackedFont(bytes: cut, record: record(font, original: bytes, characters: drawn, size: cut.count), note: note))
        }
        let cutFonts = packed.enumerated().map { FontData.bytes(name: "packed font \($0.offset)", $0.element.bytes) }
        for t in texts {
            let (size, stroke) = (label.size, label.strokeWidth)
            let same = try text("label.font") { () throws(TextError) -> Bool in
                let masks = try TextRasterizer.render(t, fonts: originals, pixelSize: size, strokeWidth: stroke)
                    == TextRasterizer.render(t, fonts: cutFonts, pixelSize: size, strokeWidth: stroke)
                let outlines = try TextRasterizer.outlines(t, fonts: originals, pixelSize: size, strokeWidth: stroke)
                    == TextRasterizer.outlines(t, fonts: cutFonts, pixelSize: size, strokeWidth: stroke)
                return masks && outlines
            }
            guard same else { throw WaveError(config, "the cut-down fonts draw \"\(t)\" differently from the originals; these fonts cannot be packed", keyPath: "label.font") }
        }
        return packed
    }

    /// What `embeddedFonts` says about one font: what the preset named, the font's full name, its
    /// licence as the font states it (name ids 13 and 14), how many of the label's characters it
    /// draws and its size embedded, in bytes.
    static func record(_ font: LabelFont, original: [UInt8], characters: Int, size: Int) -> JSONNode {
        let names = FontSubset.names(original)
        var members: [(key: String, value: JSONNode)] = [("from", JSONNode(.string(DataURI.isDataURI(font.name) ? "an embedded font" : font.name)))]
        if let full = names[4] ?? names[1] { members.append(("name", JSONNode(.string(full)))) }
        if let license = names[13]?.split(whereSeparator: \.isNewline).first.map(String.init) {
            members.append(("license", JSONNode(.string(String(license.prefix(200))))))
        }
        if let url = names[14] { members.append(("licenseURL", JSONNode(.string(url)))) }
        members.append(("characters", JSONNode(.number(Double(characters)))))
        members.append(("bytes", JSONNode(.number(Double(size)))))
        return JSONNode(.object(members))
    }
}

extension JSONNode {
    /// Sets a top-level member, replacing one of that name.
    mutating func setMember(_ key: String, _ node: JSONNode) {
        guard case var .object(members) = value else { return }
        if let i = members.firstIndex(where: { $0.key == key }) { members[i].value = node } else { members.append((key, node)) }
        value = .object(members)
    }
}
