/// Picks, among the ways a frame could be written, the one that deflates smallest: each candidate
/// image is packed to the bit depth, filtered row by row with each strategy the effort allows, and
/// compressed; the smallest stream wins (ties keep the earlier candidate, so output is deterministic).
struct FrameCandidates {
    struct Image {
        var rect: Rect
        /// Unpacked palette indices of the rectangle.
        var pixels: [UInt8]
        var blend: Blend
    }

    struct Choice {
        /// Position of the winner in the candidates.
        var choice: Int
        var rect: Rect
        var blend: Blend
        /// The zlib stream of its filtered rows.
        var data: [UInt8]
    }

    let bitDepth: Int
    let effort: Int
    private let deflater: Deflater
    private let finalDeflater: Deflater?
    private let strategies: [RowFilter.Strategy]

    init(width: Int, bitDepth: Int, effort: Int) {
        self.bitDepth = bitDepth
        self.effort = effort
        switch effort {
        case 0:
            deflater = Deflater(.libdeflate(level: 6))
            strategies = [.uniform(.none)]
        case 1:
            deflater = Deflater(.libdeflate(level: 9))
            strategies = [.uniform(.none), .adaptive]
        default:
            deflater = Deflater(.libdeflate(level: 12))
            strategies = [.uniform(.none), .uniform(.sub), .uniform(.up), .uniform(.paeth), .adaptive]
        }
        finalDeflater = effort >= 3 ? Deflater(.zopfli(iterations: 15)) : nil
    }

    func best(of images: [Image]) -> Choice {
        var best: (choice: Int, raw: [UInt8], data: [UInt8])?
        for (n, image) in images.enumerated() {
            let packed = RowFilter.pack(image.pixels, width: image.rect.width, height: image.rect.height, bitDepth: bitDepth)
            let rowBytes = RowFilter.rowBytes(width: image.rect.width, bitDepth: bitDepth)
            for strategy in strategies {
                let raw = RowFilter.filter(packed, rowBytes: rowBytes, strategy: strategy)
                let data = deflater.zlib(raw)
                if best == nil || data.count < best!.data.count { best = (n, raw, data) }
            }
        }
        guard var best else { preconditionFailure("no candidate frame") }
        if let finalDeflater {
            let data = finalDeflater.zlib(best.raw)
            if data.count < best.data.count { best.data = data }
        }
        let image = images[best.choice]
        return Choice(choice: best.choice, rect: image.rect, blend: image.blend, data: best.data)
    }
}

/// PNG row packing and filtering (filter method 0; for indexed images a "pixel" is one byte).
enum RowFilter {
    enum Kind: UInt8, CaseIterable {
        case none = 0, sub, up, average, paeth
    }

    enum Strategy: Equatable {
        /// One filter on every row.
        case uniform(Kind)
        /// Per row, the filter whose output has the smallest sum of absolute values (as signed bytes).
        case adaptive
    }

    static func rowBytes(width: Int, bitDepth: Int) -> Int { (width * bitDepth + 7) / 8 }

    /// Rows of indices packed to `bitDepth` bits, most significant first.
    static func pack(_ pixels: [UInt8], width: Int, height: Int, bitDepth: Int) -> [UInt8] {
        guard bitDepth < 8 else { return pixels }
        let stride = rowBytes(width: width, bitDepth: bitDepth)
        let perByte = 8 / bitDepth
        var out = [UInt8](repeating: 0, count: stride * height)
        for y in 0..<height {
            for x in 0..<width {
                let shift = 8 - bitDepth * (x % perByte + 1)
                out[y * stride + x / perByte] |= pixels[y * width + x] << UInt8(shift)
            }
        }
        return out
    }

    /// The filtered image data: each row prefixed by its filter type.
    static func filter(_ packed: [UInt8], rowBytes: Int, strategy: Strategy) -> [UInt8] {
        let height = rowBytes == 0 ? 0 : packed.count / rowBytes
        var out = [UInt8]()
        out.reserveCapacity((rowBytes + 1) * height)
        var row = [UInt8](repeating: 0, count: rowBytes)
        var trial = row
        for y in 0..<height {
            switch strategy {
            case let .uniform(kind):
                apply(kind, packed, y: y, rowBytes: rowBytes, into: &row)
                out.append(kind.rawValue)
                out.append(contentsOf: row)
            case .adaptive:
                var bestKind = RowFilter.Kind.none, bestCost = Int.max
                for kind in Kind.allCases {
                    apply(kind, packed, y: y, rowBytes: rowBytes, into: &trial)
                    var cost = 0
                    for b in trial { cost += b < 128 ? Int(b) : 256 - Int(b) }
                    if cost < bestCost { bestCost = cost; bestKind = kind; swap(&row, &trial) }
                }
                out.append(bestKind.rawValue)
                out.append(contentsOf: row)
            }
        }
        return out
    }

    /// Row `y` of `packed` filtered with `kind` (bytes per pixel 1).
    static func apply(_ kind: Kind, _ packed: [UInt8], y: Int, rowBytes: Int, into row: inout [UInt8]) {
        let start = y * rowBytes
        let above = y > 0 ? start - rowBytes : -1
        for i in 0..<rowBytes {
            let x = packed[start + i]
            let a = i > 0 ? packed[start + i - 1] : 0
            let b = above >= 0 ? packed[above + i] : 0
            let c = above >= 0 && i > 0 ? packed[above + i - 1] : 0
            switch kind {
            case .none: row[i] = x
            case .sub: row[i] = x &- a
            case .up: row[i] = x &- b
            case .average: row[i] = x &- UInt8((Int(a) + Int(b)) / 2)
            case .paeth: row[i] = x &- paeth(a, b, c)
            }
        }
    }

    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
    }
}
