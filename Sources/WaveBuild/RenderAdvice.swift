import WavePlatform
import WaveKit
import WaveRender

/// What rendering one preset to a file says besides the file: options a format ignores, a size
/// hint, and the frames folder's upkeep.
public enum RenderAdvice {
    /// "gif.edges, webp have no meaning for SVG; ignored", when a vector format is asked of a
    /// preset that sets raster options; nil when it sets none.
    public static func ignoredOptions(_ config: WaveConfig, format: OutputFormat) -> String? {
        var ignored: [String] = []
        if config.gif.edges != GIFOptions().edges { ignored.append("gif.edges") }
        if config.gif.matte != GIFOptions().matte { ignored.append("gif.matte") }
        if config.gif.lossy != GIFOptions().lossy { ignored.append("gif.lossy") }
        if config.gif.colors != GIFOptions().colors { ignored.append("gif.colors") }
        if config.webp != WebPOptions() { ignored.append("webp") }
        if config.apng != APNGOptions() { ignored.append("apng") }
        guard !ignored.isEmpty else { return nil }
        return "\(ignored.joined(separator: ", ")) \(ignored.count == 1 ? "has" : "have") no meaning for \(format.name); ignored"
    }

    /// Creates the `--frames` folder (and its parents).
    public static func createFramesFolder(_ dir: String) throws(WaveError) {
        do {
            try FileSystem.createDirectory(dir)
        } catch {
            let step = error.path == dir ? "" : " (at \(error.path))"
            throw WaveError(.cannotWrite, ["\(dir): cannot create the frames folder: \(error.reason)\(step)"])
        }
    }

    /// Above this size an animated image is flagged by Lighthouse ("use video formats").
    public static let largeImageBytes = 100 * 1024

    /// Advice for a large transparent GIF: where the water recedes, every frame must redraw the
    /// whole shape, so such GIFs are several times larger than the same scene on a colour.
    public static func sizeHint(_ format: OutputFormat, config: WaveConfig, bytes: Int) -> String? {
        guard format == .gif, config.background.a < 255, bytes > largeImageBytes else { return nil }
        let cut = config.gif.edges == .cut ? "" : " or --set gif.edges=cut"
        return "this transparent GIF is \(NumberText.bytes(bytes)); APNG or WebP keep true alpha in far less (-o NAME.png or NAME.webp), an opaque background (--background '#FFFFFF')\(cut) shrinks the GIF"
    }

    /// Removes `frame-NNNN.png` files in `dir` numbered `count` or more: an earlier, longer render's
    /// frames, which anything reading `frame-%04d.png` would otherwise take as part of this loop.
    /// Nothing else in the folder is touched. Returns a warning for each that cannot be removed.
    public static func removeStaleFrames(in dir: String, keeping count: Int) -> [String] {
        guard let names = try? FileSystem.names(in: dir) else { return [] }
        var warnings: [String] = []
        for name in names {
            guard let k = PNGFrameWriter.frameIndex(fileName: name), k >= count else { continue }
            do {
                try FileSystem.remove(dir + "/" + name)
            } catch {
                warnings.append("\(dir)/\(name): cannot remove this stale frame: \(error.reason)")
            }
        }
        return warnings
    }
}
