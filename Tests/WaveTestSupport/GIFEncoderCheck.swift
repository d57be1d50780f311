import WaveGIF

/// The GIF encoder's promises, checked on frames and settings drawn from a fuzz input: a small
/// canvas (up to 20 × 20), 1–256 colors (close and duplicate ones included), a transparent index or
/// none, matte planes, every color order, a few frames of runs, and a lossy bound from 0 to 128.
/// The file is decoded by giflib (`GIFDecoder`) and every pixel of every frame compared, plainly,
/// with its exact color: equal when the bound is 0; otherwise within the bound in every channel,
/// exact where the pixel's 4 neighbours share its index, and transparent only where it is, or where
/// it is marked as blended against the matte and its color is within the bound of the matte.
/// The fuzz target stops the process on a broken promise (libFuzzer records it as a finding);
/// `GIFEncoderPropertyTests` runs seeded inputs through it.
public enum GIFEncoderCheck {
    /// Each input frame's delay in centiseconds; a merged run of n identical frames shows n times it.
    static let delay = 10

    /// The first promise the encoder breaks on the frames and settings `bytes` spell, or nil.
    /// `altering`, for testing the check itself, changes the file's bytes before they are decoded.
    public static func problem(_ bytes: [UInt8], altering: ((inout [UInt8]) -> Void)? = nil) -> String? {
        var input = Reader(bytes: bytes)
        var random = SeededGenerator(state: bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 })
        let width = 1 + Int(input.next() % 20), height = 1 + Int(input.next() % 20)
        let count = 1 + Int(input.next())
        let t = input.next()
        let transparent = t & 1 == 1 ? Int(t >> 1) % count : nil
        let lossy = [0, 1, 2, 3, 4, 8, 16, 32, 64, 128][Int(input.next() % 10)]
        let m = input.next()
        let matte: RGBA8? = transparent != nil && m & 1 == 1 ? RGBA8(m, 255 &- m, 200) : nil
        let frameCount = 1 + Int(input.next() % 6)
        let order: GIFEncoder.ColorOrder = switch input.next() % 3 {
        case 0: .byUse
        case 1: .asGiven
        default: .explicit(Array((0..<count).reversed()))
        }
        let coarse = input.next() & 1 == 1
        let colors = (0..<count).map { _ -> RGBA8 in
            func channel() -> UInt8 { coarse ? UInt8(random.next() % 4) * 3 + 100 : UInt8(truncatingIfNeeded: random.next()) }
            return RGBA8(channel(), channel(), channel())
        }
        // Frames: runs of one index, from the input's remaining bytes (value, length) while they
        // last, then from the generator; a frame may repeat the one before (with its matte plane),
        // which the encoder merges.
        var frames: [[UInt8]] = [], planes: [[UInt8]] = []
        for k in 0..<frameCount {
            if k > 0 && input.next() % 4 == 0 {
                frames.append(frames[k - 1])
                planes.append(planes[k - 1])
                continue
            }
            var frame: [UInt8] = []
            while frame.count < width * height {
                let v = input.remaining > 0 ? Int(input.next()) : Int(random.next() % 256)
                let run = 1 + (input.remaining > 0 ? Int(input.next()) : Int(random.next() % 256)) % 16
                frame += repeatElement(UInt8(v % count), count: min(run, width * height - frame.count))
            }
            frames.append(frame)
            planes.append(frame.map { UInt8(Int($0) != transparent && random.next() & 1 == 1 ? 1 : 0) })
        }

        var file: [UInt8]
        do {
            let encoder = try GIFEncoder(width: width, height: height, colors: colors, transparentIndex: transparent, loops: 0,
                                         colorOrder: order, lossy: lossy, matte: matte)
            for (frame, plane) in zip(frames, planes) { try encoder.add(frame, delay: delay, matte: matte == nil ? nil : plane) }
            file = try encoder.finish()
        } catch {
            return "GIF encoder refused valid input (\(width)×\(height), \(count) colors, lossy \(lossy)): \(error)"
        }
        altering?(&file)
        let decoded: DecodedGIF
        do { decoded = try GIFDecoder.decode(file) } catch { return "GIF encoder wrote a file giflib cannot read: \(error)" }

        // Each decoded frame stands for delay ÷ `delay` input frames (identical ones merge).
        var shown: [[UInt8]] = []
        for (frame, d) in zip(decoded.frames, decoded.delays) {
            guard d > 0, d % delay == 0 else { return "GIF frame delay \(d) is not a multiple of \(delay)" }
            shown += repeatElement(frame, count: d / delay)
        }
        guard shown.count == frames.count else { return "GIF shows \(shown.count) frames for \(frames.count)" }
        for k in frames.indices {
            let truth = expand(frames[k], colors, transparent: transparent)
            for p in 0..<(width * height) {
                var error = channelError(shown[k], truth, p)
                if let matte, shown[k][p * 4 + 3] == 0, truth[p * 4 + 3] == 255, planes[k][p] != 0 {
                    // Shown transparent where marked: judged on the matte.
                    error = max(abs(Int(matte.r) - Int(truth[p * 4])), abs(Int(matte.g) - Int(truth[p * 4 + 1])),
                                abs(Int(matte.b) - Int(truth[p * 4 + 2])))
                }
                guard error > 0 else { continue }
                let flat = isFlat(frames[k], p, width: width)
                if error > lossy || flat {
                    return "GIF frame \(k) pixel \(p % width),\(p / width): off by \(error)\(flat ? ", flat" : "") at lossy \(lossy) "
                        + "(\(width)×\(height), \(count) colors, transparent \(transparent.map(String.init) ?? "none"), matte \(matte != nil))"
                }
            }
        }
        return nil
    }

    /// The input's bytes in order, then zeros.
    struct Reader {
        let bytes: [UInt8]
        var offset = 0
        var remaining: Int { bytes.count - offset }
        mutating func next() -> UInt8 {
            defer { offset += 1 }
            return offset < bytes.count ? bytes[offset] : 0
        }
    }
}
