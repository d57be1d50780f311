internal import CPNG

/// A failure from libpng, with its own message.
public struct PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    public var operation: String
    public var message: String

    public init(operation: String, message: String) {
        self.operation = operation
        self.message = message
    }

    public var description: String { "PNG: \(operation): \(message)" }
}

/// An 8-bit straight-alpha RGBA image, read and written through libpng's simplified API
/// (which reports errors without longjmp).
public struct PNGImage: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// width × height × 4 bytes.
    public var rgba: [UInt8]

    public init(width: Int, height: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    /// The PNG file's bytes.
    public func encoded() throws(PNGError) -> [UInt8] {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = wavegen_PNG_FORMAT_RGBA
        var size: png_alloc_size_t = 0
        // First ask for the size, then write.
        guard rgba.withUnsafeBytes({ png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, Int32(width * 4), nil) }) != 0 else {
            throw PNGError(operation: "encoding", message: PNGImage.message(image))
        }
        var out = [UInt8](repeating: 0, count: Int(size))
        let ok = out.withUnsafeMutableBytes { dst in
            rgba.withUnsafeBytes { png_image_write_to_memory(&image, dst.baseAddress, &size, 0, $0.baseAddress, Int32(width * 4), nil) }
        }
        guard ok != 0 else { throw PNGError(operation: "encoding", message: PNGImage.message(image)) }
        return Array(out.prefix(Int(size)))
    }

    /// Decodes any PNG (gray, palette, 8/16-bit, alpha, interlaced) to 8-bit RGBA, refusing images
    /// over `maximumPixels` before any pixel is decoded.
    public init(decoding bytes: [UInt8], maximumPixels: Int) throws(PNGError) {
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw PNGError(operation: "reading", message: "not a PNG file")
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard bytes.withUnsafeBytes({ png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }) != 0 else {
            throw PNGError(operation: "reading", message: PNGImage.message(image))
        }
        let w = Int(image.width), h = Int(image.height)
        guard w > 0, h > 0, w * h <= maximumPixels else {
            png_image_free(&image)
            throw PNGError(operation: "reading", message: "image is \(w)×\(h) pixels; at most \(maximumPixels) pixels are read")
        }
        image.format = wavegen_PNG_FORMAT_RGBA
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        let ok = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, Int32(w * 4), nil) }
        guard ok != 0 else { throw PNGError(operation: "reading", message: PNGImage.message(image)) }
        self.init(width: w, height: h, rgba: pixels)
    }

    private static func message(_ image: png_image) -> String {
        var m = image.message
        return withUnsafeBytes(of: &m) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return bytes.isEmpty ? "unknown libpng error" : String(decoding: bytes, as: UTF8.self)
        }
    }
}
