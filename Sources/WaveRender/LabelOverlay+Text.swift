import WavePlatform
import WaveKit
import WaveText

extension LabelTexts {
    /// The label of `config` with every text its frames show, rendered through FreeType once per
    /// distinct text (for the frame count of every format, so any writer finds its frames' texts);
    /// nil when the preset has no label. Characters the font lacks are an error naming them.
    public static func rendered(for config: WaveConfig, plan: LoopPlan) throws(WaveError) -> LabelTexts? {
        guard let (label, font) = try LabelOverlay.font(for: config) else { return nil }
        let counts = Set([plan.frameCount] + OutputFormat.allCases.map { plan.timing(for: $0).frameCount }).sorted()
        let texts = LabelTexts.texts(of: label, level: config.level, frameCounts: counts)
        try LabelOverlay.checkGlyphs(texts, font: font, config: config)
        var overlays: [String: LabelOverlay] = [:]
        for text in texts {
            do {
                let mask = try TextRasterizer.render(text, fonts: font, pixelSize: label.size, strokeWidth: label.strokeWidth)
                overlays[text] = LabelOverlay(label: label, box: config.box, width: mask.width, height: mask.height, fill: mask.fill, stroke: mask.stroke)
            } catch {
                throw WaveError(config, error.message, keyPath: "label.font")
            }
        }
        return LabelTexts(label: label, level: config.level, overlays: overlays)
    }
}

extension LabelOverlay {
    /// The glyph outlines of `text` in `config`'s label font, in the coordinates of its rendered
    /// mask (place them at the text's overlay's `x`, `y`); nil when the preset has no label.
    public static func outlines(for config: WaveConfig, text: String) throws(WaveError) -> TextOutline? {
        guard let (label, font) = try font(for: config) else { return nil }
        do {
            return try TextRasterizer.outlines(text, fonts: font, pixelSize: label.size, strokeWidth: label.strokeWidth)
        } catch {
            throw WaveError(config, error.message, keyPath: "label.font")
        }
    }

    /// Refuses texts with characters the font has no glyph for, naming them and the font.
    static func checkGlyphs(_ texts: [String], font: [FontData], config: WaveConfig) throws(WaveError) {
        var scalars: [Unicode.Scalar] = []
        for text in texts { for s in text.unicodeScalars where !scalars.contains(s) { scalars.append(s) } }
        let missing: [Unicode.Scalar]
        do {
            missing = try TextRasterizer.missingCharacters(scalars, fonts: font)
        } catch {
            throw WaveError(config, error.message, keyPath: "label.font")
        }
        guard !missing.isEmpty else { return }
        let names = missing.map { s in
            let hex = String(s.value, radix: 16, uppercase: true)
            return "\"\(s)\" (U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex))"
        }
        let those = missing.count == 1 ? "that character" : "those characters"
        let listed = config.label?.fonts ?? []
        let message = listed.count > 1
            ? "none of the fonts \(listed.map(\.displayName).joined(separator: ", ")) has a glyph for \(names.joined(separator: ", ")); add a font that has \(missing.count == 1 ? "it" : "them") to label.font or leave \(those) out"
            : "the font \(listed.first?.displayName ?? Label.defaultFont) has no glyph for \(names.joined(separator: ", ")); use another label.font or leave \(those) out"
        throw WaveError(config, message,
                          keyPath: "label.text")
    }

    /// The label of `config` and the fonts it draws with (the built-in default when it names
    /// none); nil when the preset has no label.
    static func font(for config: WaveConfig) throws(WaveError) -> (Label, [FontData])? {
        guard let label = config.label else { return nil }
        return (label, label.fonts.isEmpty ? [LabelFont.builtInDefault] : label.fonts.map(\.data))
    }
}

extension LabelFont {
    /// The font as FreeType reads it.
    public var data: FontData {
        switch source {
        case let .file(path): .file(path)
        case let .embedded(bytes): .bytes(name: displayName, bytes)
        }
    }

    /// The default label font, built in (`DefaultFont`, scripts/dev/subset-default-font).
    public static let builtInDefault = FontData.bytes(name: Label.defaultFont, defaultFontBytes)

    /// The bytes of the built-in default font, decoded once.
    public static let defaultFontBytes: [UInt8] = Base64.decodeIgnoringOtherCharacters(DefaultFont.base64) ?? []
}
