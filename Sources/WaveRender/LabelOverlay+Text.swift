import Foundation
import WaveKit
import WaveText

extension LabelOverlay {
    /// The label of `config` with its text rendered through FreeType and placed in the box; nil when
    /// the preset has no label.
    public static func rendered(for config: WaveConfig) throws(RenderError) -> LabelOverlay? {
        guard let (label, font) = try font(for: config) else { return nil }
        do {
            let mask = try TextRasterizer.render(label.text(level: config.level.nominal), fontPath: font,
                                                 pixelSize: label.size, strokeWidth: label.strokeWidth)
            return LabelOverlay(label: label, box: config.box, width: mask.width, height: mask.height, fill: mask.fill, stroke: mask.stroke)
        } catch {
            throw RenderError(config, error.message, keyPath: "label.font")
        }
    }

    /// The glyph outlines of `config`'s label in the coordinates of its rendered mask (place them at
    /// the overlay's `x`, `y`); nil when the preset has no label.
    public static func outlines(for config: WaveConfig) throws(RenderError) -> TextOutline? {
        guard let (label, font) = try font(for: config) else { return nil }
        do {
            return try TextRasterizer.outlines(label.text(level: config.level.nominal), fontPath: font,
                                               pixelSize: label.size, strokeWidth: label.strokeWidth)
        } catch {
            throw RenderError(config, error.message, keyPath: "label.font")
        }
    }

    private static func font(for config: WaveConfig) throws(RenderError) -> (Label, String)? {
        guard let label = config.label else { return nil }
        let font = label.font ?? Label.defaultFont
        guard FileManager.default.fileExists(atPath: font) else {
            let hint = label.font == nil ? " (the default font comes with Debian's fonts-dejavu-core package)" : ""
            throw RenderError(config, "\(font): no such file\(hint)", keyPath: "label.font", kind: .missingInput)
        }
        return (label, font)
    }
}
