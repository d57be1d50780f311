import CDeflate

/// Reads an animated PNG back into full straight-alpha RGBA frames, the way a player composes them
/// (disposal and blending as the APNG specification says). Indexed colour only: what `APNGEncoder`
/// writes. Checks every chunk's CRC and order; for tests and tools, not for speed.
public struct APNGDecoder {
    public struct Frame: Equatable, Sendable {
        /// `width` × `height` × 4 bytes, straight alpha.
        public var rgba: [UInt8]
        /// The delay as written (numerator, denominator; a denominator of 0 means 100).
        public var delay: (numerator: Int, denominator: Int)
        /// The frame's `fcTL` ops as written: `dispose_op` (0 none, 1 background, 2 previous) and
        /// `blend_op` (0 source, 1 over).
        public var dispose: UInt8 = 0
        public var blend: UInt8 = 0

        public static func == (a: Frame, b: Frame) -> Bool {
            a.rgba == b.rgba && a.delay == b.delay
        }

        /// The delay in seconds.
        public var seconds: Double {
            Double(delay.numerator) / Double(delay.denominator == 0 ? 100 : delay.denominator)
        }
    }

    public let width: Int
    public let height: Int
    public let bitDepth: Int
    /// Plays of the loop; 0 forever.
    public let loops: Int
    public let frames: [Frame]
    /// The default image (what a reader without animation support shows).
    public let defaultImage: [UInt8]
    /// RGBA quads of the palette (alpha from `tRNS`); empty for an RGBA image.
    public let palette: [UInt8]

    public init(_ bytes: [UInt8]) throws(APNGError) {
        var reader = ChunkReader(bytes)
        try reader.signature()
        var header: [UInt8] = []
        var plte: [UInt8] = [], trns: [UInt8] = []
        var frameCount = -1, loops = 0
        var controls: [[UInt8]] = []
        var data: [[UInt8]] = []
        var defaultData: [UInt8] = []
        var sequence = 0
        var seenIDAT = false
        while let (type, body) = try reader.next() {
            switch type {
            case "IHDR": header = body
            case "acTL":
                guard body.count == 8, !seenIDAT else { throw APNGError("acTL must come before IDAT") }
                frameCount = Int(UInt32(bytes: body, at: 0)); loops = Int(UInt32(bytes: body, at: 4))
            case "PLTE": plte = body
            case "tRNS": trns = body
            case "fcTL":
                guard body.count == 26, Int(UInt32(bytes: body, at: 0)) == sequence else { throw APNGError("fcTL out of sequence") }
                sequence += 1
                controls.append(body)
                data.append([])
            case "IDAT":
                seenIDAT = true
                defaultData += body
                if controls.count == 1 && data.count == 1 { data[0] += body }
            case "fdAT":
                guard body.count >= 4, Int(UInt32(bytes: body, at: 0)) == sequence, !data.isEmpty else { throw APNGError("fdAT out of sequence") }
                sequence += 1
                data[data.count - 1] += body[4...]
            case "IEND": break
            default:
                if type.first?.isUppercase == true { throw APNGError("unknown critical chunk \(type)") }
            }
        }
        guard header.count == 13 else { throw APNGError("no IHDR") }
        width = Int(UInt32(bytes: header, at: 0)); height = Int(UInt32(bytes: header, at: 4))
        bitDepth = Int(header[8])
        // Indexed at 1…8 bits, or 8-bit RGBA (colour type 6, a scene with gradients).
        let trueColor = header[9] == 6 && bitDepth == 8
        guard trueColor || (header[9] == 3 && [1, 2, 4, 8].contains(bitDepth)) else { throw APNGError("not an indexed-colour or 8-bit RGBA PNG") }
        guard trueColor || (!plte.isEmpty && plte.count % 3 == 0 && trns.count <= plte.count / 3) else { throw APNGError("bad PLTE or tRNS") }
        guard frameCount == controls.count, frameCount > 0 else { throw APNGError("acTL says \(frameCount) frames, found \(controls.count)") }
        self.loops = loops
        var pal: [UInt8] = []
        for i in 0..<(plte.count / 3) {
            pal += plte[i * 3..<i * 3 + 3]
            pal.append(i < trns.count ? trns[i] : 255)
        }
        palette = pal
        let depth = bitDepth, fullWidth = width, fullHeight = height
        func image(_ stream: [UInt8], _ w: Int, _ h: Int) throws(APNGError) -> [UInt8] {
            if trueColor {
                return try APNGDecoder.indices(inflate(stream, size: (w * 4 + 1) * h), width: w * 4, height: h, bitDepth: 8, bytesPerPixel: 4)
            }
            return try APNGDecoder.indices(inflate(stream, size: (RowFilter.rowBytes(width: w, bitDepth: depth) + 1) * h),
                                           width: w, height: h, bitDepth: depth)
        }
        defaultImage = trueColor ? try image(defaultData, fullWidth, fullHeight)
            : try image(defaultData, fullWidth, fullHeight).flatMap { pal[Int($0) * 4..<Int($0) * 4 + 4] }

        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var out: [Frame] = []
        for (control, stream) in zip(controls, data) {
            let w = Int(UInt32(bytes: control, at: 4)), h = Int(UInt32(bytes: control, at: 8))
            let x0 = Int(UInt32(bytes: control, at: 12)), y0 = Int(UInt32(bytes: control, at: 16))
            let num = Int(UInt16(bytes: control, at: 20)), den = Int(UInt16(bytes: control, at: 22))
            let dispose = control[24], blend = control[25]
            guard w > 0, h > 0, x0 + w <= width, y0 + h <= height, dispose <= 2, blend <= 1 else {
                throw APNGError("frame rectangle or ops out of range")
            }
            let indices = try image(stream, w, h)
            // True color: the pixels are their own "palette", pixel i at 4i.
            let source = trueColor ? indices : pal
            let before = canvas
            for y in 0..<h {
                for x in 0..<w {
                    let s = trueColor ? (y * w + x) * 4 : Int(indices[y * w + x]) * 4
                    guard s + 3 < source.count else { throw APNGError("index beyond the palette") }
                    let d = ((y0 + y) * fullWidth + x0 + x) * 4
                    if blend == 0 {
                        for k in 0..<4 { canvas[d + k] = source[s + k] }
                    } else {
                        APNGDecoder.over(source, s, &canvas, d)
                    }
                }
            }
            out.append(Frame(rgba: canvas, delay: (num, den), dispose: dispose, blend: blend))
            if dispose == 1 {
                for y in y0..<(y0 + h) {
                    for x in x0..<(x0 + w) { for k in 0..<4 { canvas[(y * fullWidth + x) * 4 + k] = 0 } }
                }
            } else if dispose == 2 {
                canvas = out.count == 1 ? [UInt8](repeating: 0, count: fullWidth * fullHeight * 4) : before
            }
        }
        frames = out
    }

    /// Straight-alpha "over" of palette colour `s` onto canvas pixel `d`, rounded.
    static func over(_ pal: [UInt8], _ s: Int, _ canvas: inout [UInt8], _ d: Int) {
        let sa = Double(pal[s + 3]) / 255, da = Double(canvas[d + 3]) / 255
        if sa == 1 { for k in 0..<4 { canvas[d + k] = pal[s + k] }; return }
        if sa == 0 { return }
        let a = sa + da * (1 - sa)
        for k in 0..<3 {
            let c = (Double(pal[s + k]) * sa + Double(canvas[d + k]) * da * (1 - sa)) / a
            canvas[d + k] = UInt8(c.rounded())
        }
        canvas[d + 3] = UInt8((a * 255).rounded())
    }

    /// Unfiltered rows (`bytesPerPixel` apart for the filters' "left", 4 for RGBA), unpacked to one
    /// index a byte below 8 bits.
    static func indices(_ filtered: [UInt8], width: Int, height: Int, bitDepth: Int, bytesPerPixel bpp: Int = 1) throws(APNGError) -> [UInt8] {
        let stride = RowFilter.rowBytes(width: width, bitDepth: bitDepth)
        guard filtered.count == (stride + 1) * height else { throw APNGError("image data has the wrong size") }
        var rows = [UInt8](repeating: 0, count: stride * height)
        for y in 0..<height {
            let kind = filtered[y * (stride + 1)]
            guard kind <= 4 else { throw APNGError("filter type \(kind)") }
            for i in 0..<stride {
                let x = filtered[y * (stride + 1) + 1 + i]
                let a = i >= bpp ? rows[y * stride + i - bpp] : 0
                let b = y > 0 ? rows[(y - 1) * stride + i] : 0
                let c = y > 0 && i >= bpp ? rows[(y - 1) * stride + i - bpp] : 0
                let predictor: UInt8
                switch kind {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = UInt8((Int(a) + Int(b)) / 2)
                default: predictor = RowFilter.paeth(a, b, c)
                }
                rows[y * stride + i] = x &+ predictor
            }
        }
        guard bitDepth < 8 else { return rows }
        let perByte = 8 / bitDepth, mask = UInt8((1 << bitDepth) - 1)
        var out = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let byte = rows[y * stride + x / perByte]
                out[y * width + x] = (byte >> UInt8(8 - bitDepth * (x % perByte + 1))) & mask
            }
        }
        return out
    }
}

private func inflate(_ stream: [UInt8], size: Int) throws(APNGError) -> [UInt8] {
    guard let d = libdeflate_alloc_decompressor() else { throw APNGError("out of memory") }
    defer { libdeflate_free_decompressor(d) }
    var out = [UInt8](repeating: 0, count: size)
    var actual = 0
    let result = stream.withUnsafeBytes { input in
        out.withUnsafeMutableBytes { output in
            libdeflate_zlib_decompress(d, input.baseAddress, stream.count, output.baseAddress, size, &actual)
        }
    }
    guard result == LIBDEFLATE_SUCCESS, actual == size else { throw APNGError("image data does not inflate to \(size) bytes") }
    return out
}

private struct ChunkReader {
    let bytes: [UInt8]
    var at = 8

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func signature() throws(APNGError) {
        guard bytes.count >= 8, Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
            throw APNGError("not a PNG")
        }
    }

    mutating func next() throws(APNGError) -> (String, [UInt8])? {
        guard at < bytes.count else { return nil }
        guard at + 12 <= bytes.count else { throw APNGError("truncated chunk") }
        let length = Int(UInt32(bytes: bytes, at: at))
        guard at + 12 + length <= bytes.count else { throw APNGError("truncated chunk") }
        let type = String(decoding: bytes[at + 4..<at + 8], as: UTF8.self)
        let body = Array(bytes[at + 8..<at + 8 + length])
        let crc = UInt32(bytes: bytes, at: at + 8 + length)
        guard Deflater.crc32(bytes[at + 4..<at + 8 + length]) == crc else { throw APNGError("bad CRC in \(type)") }
        at += 12 + length
        return (type, body)
    }
}

extension FixedWidthInteger {
    init(bytes: [UInt8], at offset: Int) {
        var v: Self = 0
        for k in 0..<(Self.bitWidth / 8) { v = v << 8 | Self(bytes[offset + k]) }
        self = v
    }
}
