import WavePlatform

/// Picks, among the ways a frame could be written, the one that deflates smallest: the candidate
/// layouts (disposal of the previous frame, rectangle, blend) are ranked unfiltered with a fast
/// deflate, the best one is filtered with each strategy the effort allows, and the smallest of those
/// is what `FinalDeflate` compresses again harder (`finalEngine`). Ties keep the earlier choice, so
/// output is deterministic.
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
        /// Its filtered rows.
        var raw: [UInt8]
        /// Their zlib stream from the ranking deflate.
        var data: [UInt8]
    }

    let bitDepth: Int
    let effort: Int
    /// Ranks the candidates (fast).
    private let trial: Deflater
    /// Compresses the winner again, harder; nil when the ranking's stream is kept.
    let finalEngine: Deflater.Engine?
    private let strategies: [RowFilter.Strategy]

    init(bitDepth: Int, effort: Int) {
        self.bitDepth = bitDepth
        self.effort = effort
        let every: [RowFilter.Strategy] = [.uniform(.none), .uniform(.sub), .uniform(.up), .uniform(.paeth), .adaptive]
        // Below effort 3, 8-bit indices try only none and sub: with every strategy tried, `none` won
        // every 8-bit row of the bundled presets, `sub` every row of wide scenes (the benchmark's
        // 800×200 one, about a quarter smaller), the others never. Packed 1…4-bit rows try each.
        // Layouts are ranked at libdeflate's level 1. The final deflate is most of the time: level 7
        // is the strongest that kept every bundled preset within twice the GIF encoder's CPU time
        // (level 8: 1.8× on classic, 2.3× on dark; wavegen-bench's enc CPU column); level 12
        // (near-optimal parsing), run alone on the frames each preset writes, made them 2–8 %
        // smaller in 8–80× the time of level 7.
        let filters = bitDepth < 8 ? every : [.uniform(.none), .uniform(.sub)]
        let engines = FrameCandidates.engines(effort: effort)
        trial = Deflater(engines.trial)
        finalEngine = engines.final
        switch effort {
        case 0: strategies = [.uniform(.none)]
        case 1, 2: strategies = filters
        default: strategies = every
        }
    }

    /// The deflate that ranks candidates and the one that compresses the winner again at `effort`
    /// (nil: the ranking's stream is kept). Palette and true-colour frames share them.
    static func engines(effort: Int) -> (trial: Deflater.Engine, final: Deflater.Engine?) {
        switch effort {
        case 0: return (.libdeflate(level: 1), nil)
        case 1: return (.libdeflate(level: 1), .libdeflate(level: 6))
        case 2: return (.libdeflate(level: 1), .libdeflate(level: 7))
        default: return (.libdeflate(level: 2), .zopfli(iterations: 15))
        }
    }

    func best(of images: [Image]) -> Choice {
        let packed = images.map { RowFilter.pack($0.pixels, width: $0.rect.width, height: $0.rect.height, bitDepth: bitDepth) }
        let rows = images.map { RowFilter.rowBytes(width: $0.rect.width, bitDepth: bitDepth) }
        // First the layouts (disposal, rectangle, blend), unfiltered; then every filter on the best layout.
        // Below effort 3 only two layouts are deflated: of the rectangles written as they are, and of
        // those blended over with unchanged pixels keyed, the one `RowFilter.estimate` ranks first (it
        // tells rectangles apart well, a keyed rectangle from a plain one badly).
        var order = Array(images.indices)
        if effort < 3, images.count > 2 {
            let costs = packed.indices.map { RowFilter.estimate(packed[$0], rowBytes: rows[$0]) }
            order = [Blend.source, .over].compactMap { blend in
                images.indices.filter { images[$0].blend == blend }.min { (costs[$0], $0) < (costs[$1], $1) }
            }
        }
        var layout = order[0]
        var unfiltered: (raw: [UInt8], data: [UInt8])?
        if order.count > 1 {
            for n in order {
                let raw = RowFilter.filter(packed[n], rowBytes: rows[n], strategy: .uniform(.none))
                let data = trial.zlib(raw)
                if data.count < unfiltered?.data.count ?? .max { (layout, unfiltered) = (n, (raw, data)) }
            }
        }
        let best = RowFilter.smallest(packed[layout], rowBytes: rows[layout], strategies: strategies, trial: trial,
                                      unfiltered: unfiltered)
        let image = images[layout]
        return Choice(choice: layout, rect: image.rect, blend: image.blend, raw: best.raw, data: best.data)
    }
}

/// PNG row packing and filtering (filter method 0; for indexed images a "pixel" is one byte, for
/// 8-bit RGBA four).
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

    /// Of `strategies`, the filtered rows `trial` deflates smallest, with that stream; equal sizes
    /// keep the earlier strategy. `unfiltered`, when given, is the `.uniform(.none)` trial already
    /// made, used instead of deflating those rows again.
    static func smallest(_ packed: [UInt8], rowBytes: Int, bytesPerPixel: Int = 1, strategies: [Strategy], trial: Deflater,
                         unfiltered: (raw: [UInt8], data: [UInt8])? = nil) -> (raw: [UInt8], data: [UInt8]) {
        var best: (raw: [UInt8], data: [UInt8])?
        for strategy in strategies {
            let candidate: (raw: [UInt8], data: [UInt8])
            if strategy == .uniform(.none), let unfiltered {
                candidate = unfiltered
            } else {
                let raw = filter(packed, rowBytes: rowBytes, strategy: strategy, bytesPerPixel: bytesPerPixel)
                candidate = (raw, trial.zlib(raw))
            }
            if candidate.data.count < best?.data.count ?? .max { best = candidate }
        }
        return best!
    }

    /// A cheap stand-in for the deflated size of unfiltered rows, to rank rectangles: the number of
    /// runs (bytes unlike the one before), where a row equal to the row above costs nothing, as
    /// deflate codes both almost for free.
    static func estimate(_ packed: [UInt8], rowBytes: Int) -> Int {
        guard rowBytes > 0 else { return 0 }
        let height = packed.count / rowBytes
        return packed.withUnsafeBufferPointer { p in
            var runs = 0
            for y in 0..<height {
                let row = p.baseAddress! + y * rowBytes
                if y > 0, CMemory.equal(row, row - rowBytes, count: rowBytes) { continue }
                runs += 1
                for i in 1..<max(1, rowBytes) where row[i] != row[i - 1] { runs += 1 }
            }
            return runs
        }
    }

    /// The filtered image data: each row prefixed by its filter type.
    static func filter(_ packed: [UInt8], rowBytes: Int, strategy: Strategy, bytesPerPixel: Int = 1) -> [UInt8] {
        let height = rowBytes == 0 ? 0 : packed.count / rowBytes
        var out = [UInt8]()
        out.reserveCapacity((rowBytes + 1) * height)
        var row = [UInt8](repeating: 0, count: rowBytes)
        var trial = row
        for y in 0..<height {
            switch strategy {
            case let .uniform(kind):
                apply(kind, packed, y: y, rowBytes: rowBytes, bytesPerPixel: bytesPerPixel, into: &row)
                out.append(kind.rawValue)
                out.append(contentsOf: row)
            case .adaptive:
                var bestKind = RowFilter.Kind.none, bestCost = Int.max
                for kind in Kind.allCases {
                    apply(kind, packed, y: y, rowBytes: rowBytes, bytesPerPixel: bytesPerPixel, into: &trial)
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

    /// Row `y` of `packed` filtered with `kind`; the byte a filter calls "left" is `bytesPerPixel`
    /// back.
    static func apply(_ kind: Kind, _ packed: [UInt8], y: Int, rowBytes: Int, bytesPerPixel bpp: Int = 1, into row: inout [UInt8]) {
        packed.withUnsafeBufferPointer { p in
            row.withUnsafeMutableBufferPointer { r in
                let cur = p.baseAddress! + y * rowBytes
                let up: UnsafePointer<UInt8>? = y > 0 ? cur - rowBytes : nil
                switch kind {
                case .none:
                    for i in 0..<rowBytes { r[i] = cur[i] }
                case .sub:
                    for i in 0..<rowBytes { r[i] = i >= bpp ? cur[i] &- cur[i - bpp] : cur[i] }
                case .up:
                    if let up { for i in 0..<rowBytes { r[i] = cur[i] &- up[i] } } else { for i in 0..<rowBytes { r[i] = cur[i] } }
                case .average:
                    for i in 0..<rowBytes {
                        let a = i >= bpp ? Int(cur[i - bpp]) : 0, b = up.map { Int($0[i]) } ?? 0
                        r[i] = cur[i] &- UInt8((a + b) / 2)
                    }
                case .paeth:
                    for i in 0..<rowBytes {
                        let a = i >= bpp ? cur[i - bpp] : 0, b = up?[i] ?? 0, c = i >= bpp ? (up?[i - bpp] ?? 0) : 0
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
