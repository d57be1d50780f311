import Foundation
import WaveKit
import WaveText

extension LabelTexts {
    /// The label of `config` with every text its frames show, rendered through FreeType once per
    /// distinct text (for the frame count of every format, so any writer finds its frames' texts);
    /// nil when the preset has no label. Characters the font lacks are an error naming them.
    public static func rendered(for config: WaveConfig, plan: LoopPlan) throws(RenderError) -> LabelTexts? {
        guard let (label, font) = try LabelOverlay.font(for: config) else { return nil }
        let counts = Set([plan.frameCount] + OutputFormat.allCases.map { plan.timing(for: $0).frameCount }).sorted()
        let texts = LabelTexts.texts(of: label, level: config.level, frameCounts: counts)
        try LabelOverlay.checkGlyphs(texts, font: font, config: config)
        var overlays: [String: LabelOverlay] = [:]
        for text in texts {
            do {
                let mask = try TextRasterizer.render(text, fontPath: font, pixelSize: label.size, strokeWidth: label.strokeWidth)
                overlays[text] = LabelOverlay(label: label, box: config.box, width: mask.width, height: mask.height, fill: mask.fill, stroke: mask.stroke)
            } catch {
                throw RenderError(config, error.message, keyPath: "label.font")
            }
        }
        return LabelTexts(label: label, level: config.level, overlays: overlays)
    }
}

extension LabelOverlay {
    /// The glyph outlines of `text` in `config`'s label font, in the coordinates of its rendered
    /// mask (place them at the text's overlay's `x`, `y`); nil when the preset has no label.
    public static func outlines(for config: WaveConfig, text: String) throws(RenderError) -> TextOutline? {
        guard let (label, font) = try font(for: config) else { return nil }
        do {
            return try TextRasterizer.outlines(text, fontPath: font, pixelSize: label.size, strokeWidth: label.strokeWidth)
        } catch {
            throw RenderError(config, error.message, keyPath: "label.font")
        }
    }

    /// Refuses texts with characters the font has no glyph for, naming them and the font.
    static func checkGlyphs(_ texts: [String], font: String, config: WaveConfig) throws(RenderError) {
        var scalars: [Unicode.Scalar] = []
        for text in texts { for s in text.unicodeScalars where !scalars.contains(s) { scalars.append(s) } }
        let missing: [Unicode.Scalar]
        do {
            missing = try TextRasterizer.missingCharacters(scalars, fontPath: font)
        } catch {
            throw RenderError(config, error.message, keyPath: "label.font")
        }
        guard !missing.isEmpty else { return }
        let names = missing.map { s in
            let hex = String(s.value, radix: 16, uppercase: true)
            return "\"\(s)\" (U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex))"
        }
        let fontName = config.label?.fontName.map { "\($0) (\(font))" } ?? font
        throw RenderError(config, "the font \(fontName) has no glyph for \(names.joined(separator: ", ")); use another label.font or leave \(missing.count == 1 ? "that character" : "those characters") out",
                          keyPath: "label.text")
    }

    static func font(for config: WaveConfig) throws(RenderError) -> (Label, String)? {
        guard let label = config.label else { return nil }
        let font = label.font ?? Label.defaultFont
        guard FileManager.default.fileExists(atPath: font) else {
            let hint = label.font == nil ? " (the default font comes with Debian's fonts-dejavu-core package)" : ""
            throw RenderError(config, "\(font): no such file\(hint)", keyPath: "label.font", kind: .missingInput)
        }
        return (label, font)
    }
}
