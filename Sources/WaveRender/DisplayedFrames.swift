import WavePlatform
import WaveAPNG
import WaveGIF
import WaveKit
import WaveWebP

/// A raster file played back: its whole-canvas frames (straight RGBA) and when each starts, in
/// seconds from the start of the loop. What a viewer sees, so what a size budget's quality is
/// judged by.
public struct DisplayedFrames: Sendable {
    public var width: Int
    public var height: Int
    public var frames: [[UInt8]]
    /// Start time of each frame; the first is 0.
    public var starts: [Double]
    /// The loop's length in seconds.
    public var duration: Double

    public init(width: Int, height: Int, frames: [[UInt8]], delays: [Double]) {
        self.width = width
        self.height = height
        self.frames = frames
        var t = 0.0
        starts = delays.map { d in defer { t += d }; return t }
        duration = t
    }

    /// Decodes a GIF, WebP or APNG file as its format's player would show it.
    public static func decode(_ bytes: [UInt8], format: OutputFormat) throws(WaveError) -> DisplayedFrames {
        do {
            switch format {
            case .gif:
                let gif = try GIFDecoder.decode(bytes)
                return DisplayedFrames(width: gif.width, height: gif.height, frames: gif.frames, delays: gif.delays.map { Double($0) / 100 })
            case .webp:
                let webp = try WebPAnimationDecoder.decode(bytes)
                return DisplayedFrames(width: webp.width, height: webp.height, frames: webp.frames, delays: webp.durations.map { Double($0) / 1000 })
            case .apng:
                let png = try APNGDecoder(bytes)
                return DisplayedFrames(width: png.width, height: png.height, frames: png.frames.map(\.rgba), delays: png.frames.map(\.seconds))
            case .svg, .lottie, .dotlottie:
                throw WaveError(.failure, ["\(format.name) has no raster frames to decode"])
            }
        } catch let e as WaveError {
            throw e
        } catch {
            throw WaveError(.failure, ["reading back the \(format.name) written: \(error)"])
        }
    }

    /// The frames as shown on an opaque page of color `page` (source-over): how a GIF whose edges
    /// are blended against `gif.matte` is meant to be seen, and so judged.
    public func shown(on page: RGBA) -> DisplayedFrames {
        var copy = self
        copy.show(on: page)
        return copy
    }

    /// `shown(on:)` in place: no copy of the frames (a decoded file is put on its page once).
    public mutating func show(on page: RGBA) {
        let ur = Int(page.r), ug = Int(page.g), ub = Int(page.b)
        for k in frames.indices {
            frames[k].withUnsafeMutableBufferPointer { f in
                var i = 0
                let n = f.count
                while i + 3 < n {
                    let a = Int(f[i + 3])
                    if a < 255 {
                        let b = 255 - a
                        f[i] = UInt8(truncatingIfNeeded: (Int(f[i]) * a + ur * b + 127) / 255)
                        f[i + 1] = UInt8(truncatingIfNeeded: (Int(f[i + 1]) * a + ug * b + 127) / 255)
                        f[i + 2] = UInt8(truncatingIfNeeded: (Int(f[i + 2]) * a + ub * b + 127) / 255)
                        f[i + 3] = 255
                    }
                    i += 4
                }
            }
        }
    }

    /// The mean squared error between what `self` and `other` show, premultiplied RGBA (0…255 per
    /// channel), averaged over the loop's time: the two timelines are cut wherever either changes
    /// frame, and each piece counts by its length. Both must have the same size.
    public func meanSquaredError(against other: DisplayedFrames) -> Double {
        precondition(width == other.width && height == other.height, "frames of different sizes")
        let cuts = Array(Set(starts + other.starts).filter { $0 < duration - 1e-9 }).sorted()
        var cache: [Int: Double] = [:]
        var total = 0.0, weight = 0.0
        for (n, t) in cuts.enumerated() {
            let end = n + 1 < cuts.count ? cuts[n + 1] : duration
            let a = DisplayedFrames.frame(at: t, starts: starts)
            let b = DisplayedFrames.frame(at: t, starts: other.starts)
            let key = a * other.frames.count + b
            let mse = cache[key] ?? DisplayedFrames.meanSquaredError(frames[a], other.frames[b])
            cache[key] = mse
            total += mse * (end - t)
            weight += end - t
        }
        return weight > 0 ? total / weight : 0
    }

    /// PSNR in dB for a mean squared error on 0…255 channels; infinity for none.
    public static func psnr(meanSquaredError mse: Double) -> Double {
        mse <= 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// The frame shown at time `t`: the last one starting at or before it.
    static func frame(at t: Double, starts: [Double]) -> Int {
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= t + 1e-9 { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// Per-channel mean squared error of two straight-RGBA images compared premultiplied.
    static func meanSquaredError(_ a: [UInt8], _ b: [UInt8]) -> Double {
        var sum = 0.0
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                var i = 0
                while i < a.count {
                    let aa = Double(a[i + 3]), ba = Double(b[i + 3])
                    if a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2] || aa != ba {
                        for c in 0..<3 {
                            let d = (Double(a[i + c]) * aa - Double(b[i + c]) * ba) / 255
                            sum += d * d
                        }
                        sum += (aa - ba) * (aa - ba)
                    }
                    i += 4
                }
            }
        }
        return sum / Double(a.count)
    }
}
