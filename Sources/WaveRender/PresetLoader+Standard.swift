import WaveKit
import WavePNG
import WaveText

extension PresetLoader {
    /// The largest rider image accepted, in pixels (checked from the PNG header before decoding).
    public static let maximumImagePixels = 4096 * 4096

    /// The loader every tool uses: bundled presets, rider images decoded by libpng, and fonts
    /// named by family and style found by fontconfig.
    public static let standard = PresetLoader(imageDecoder: { (bytes: [UInt8]) throws(ImageProblem) -> RiderImage in
        do throws(PNGError) {
            let png = try PNGImage(decoding: bytes, maximumPixels: maximumImagePixels)
            return RiderImage(width: png.width, height: png.height, rgba: png.rgba)
        } catch {
            throw ImageProblem(error.message)
        }
    }, fontResolver: { (name: String) throws(FontProblem) -> String in
        do throws(TextError) {
            return try FontLookup.file(matching: name)
        } catch {
            throw FontProblem(error.message)
        }
    }, fontChecker: { (font: LabelFont) throws(FontProblem) in
        do throws(TextError) {
            _ = try TextRasterizer.missingCharacters([], fonts: [font.data])
        } catch {
            throw FontProblem(error.message)
        }
    })
}
