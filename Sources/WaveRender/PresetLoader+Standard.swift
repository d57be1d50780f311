import WaveKit
import WavePNG

extension PresetLoader {
    /// The largest rider image accepted, in pixels (checked from the PNG header before decoding).
    public static let maximumImagePixels = 4096 * 4096

    /// The loader every tool uses: bundled presets, and rider images decoded by libpng.
    public static let standard = PresetLoader(imageDecoder: { (bytes: [UInt8]) throws(ImageProblem) -> RiderImage in
        do throws(PNGError) {
            let png = try PNGImage(decoding: bytes, maximumPixels: maximumImagePixels)
            return RiderImage(width: png.width, height: png.height, rgba: png.rgba)
        } catch {
            throw ImageProblem(error.message)
        }
    })
}
