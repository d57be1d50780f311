/// Picks, among the ways a frame could be written, the one that deflates smallest: the candidate
/// layouts (disposal of the previous frame, rectangle, blend) are ranked unfiltered with a fast
/// deflate, the best one is filtered with each strategy the effort allows, and the smallest of those
/// is compressed again harder. Ties keep the earlier choice, so output is deterministic.
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
    /// Ranks the candidates (fast).
    private let trial: Deflater
    /// Compresses the best trial again, harder; nil when the trial's stream is kept.
    private let final: Deflater?
    private let strategies: [RowFilter.Strategy]

    init(bitDepth: Int, effort: Int) {
        self.bitDepth = bitDepth
        self.effort = effort
        let every: [RowFilter.Strategy] = [.uniform(.none), .uniform(.sub), .uniform(.up), .uniform(.paeth), .adaptive]
        // Ranking at level 2 measured as good as at 6 (sometimes better) and several times faster;
        // the final deflate is where the effort goes (scripts/compare-apng, wavegen-bench).
        switch effort {
        case 0:
            trial = Deflater(.libdeflate(level: 6))
            (final, strategies) = (nil, [.uniform(.none)])
        case 1:
            trial = Deflater(.libdeflate(level: 2))
            (final, strategies) = (Deflater(.libdeflate(level: 10)), every)
        case 2:
            trial = Deflater(.libdeflate(level: 2))
            (final, strategies) = (Deflater(.libdeflate(level: 12)), every)
        default:
            trial = Deflater(.libdeflate(level: 2))
            (final, strategies) = (Deflater(.zopfli(iterations: 15)), every)
        }
    }

    func best(of images: [Image]) -> Choice {
        let packed = images.map { RowFilter.pack($0.pixels, width: $0.rect.width, height: $0.rect.height, bitDepth: bitDepth) }
        let rows = images.map { RowFilter.rowBytes(width: $0.rect.width, bitDepth: bitDepth) }
        // First the layouts (disposal, rectangle, blend), unfiltered; then every filter on the best layout.
        var layout = 0
        if images.count > 1 {
            var smallest = Int.max
            for n in images.indices {
                let size = trial.zlib(RowFilter.filter(packed[n], rowBytes: rows[n], strategy: .uniform(.none))).count
                if size < smallest { (smallest, layout) = (size, n) }
            }
        }
        var trials: [(size: Int, raw: [UInt8], data: [UInt8])] = []
        for strategy in strategies {
            let raw = RowFilter.filter(packed[layout], rowBytes: rows[layout], strategy: strategy)
            let data = trial.zlib(raw)
            trials.append((data.count, raw, data))
        }
        // Stable: equal sizes keep the earlier strategy.
        let best = trials.enumerated().min { ($0.element.size, $0.offset) < ($1.element.size, $1.offset) }!.element
        var data = best.data
        if let again = final?.zlib(best.raw), again.count < data.count { data = again }
        let image = images[layout]
        return Choice(choice: layout, rect: image.rect, blend: image.blend, data: data)
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
        packed.withUnsafeBufferPointer { p in
            row.withUnsafeMutableBufferPointer { r in
                let cur = p.baseAddress! + y * rowBytes
                let up: UnsafePointer<UInt8>? = y > 0 ? cur - rowBytes : nil
                switch kind {
                case .none:
                    for i in 0..<rowBytes { r[i] = cur[i] }
                case .sub:
                    r[0] = cur[0]
                    for i in 1..<max(1, rowBytes) { r[i] = cur[i] &- cur[i - 1] }
                case .up:
                    if let up { for i in 0..<rowBytes { r[i] = cur[i] &- up[i] } } else { for i in 0..<rowBytes { r[i] = cur[i] } }
                case .average:
                    for i in 0..<rowBytes {
                        let a = i > 0 ? Int(cur[i - 1]) : 0, b = up.map { Int($0[i]) } ?? 0
                        r[i] = cur[i] &- UInt8((a + b) / 2)
                    }
                case .paeth:
                    for i in 0..<rowBytes {
                        let a = i > 0 ? cur[i - 1] : 0, b = up?[i] ?? 0, c = i > 0 ? (up?[i - 1] ?? 0) : 0
                        r[i] = cur[i] &- paeth(a, b, c)
                    }
                }
            }
        }
    }

    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
    }
}
