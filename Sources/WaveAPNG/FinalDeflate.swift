import Dispatch

/// The last, strongest deflate of each written frame, run on a second thread while the encoder ranks
/// the next frame. Frames are compressed one at a time in the order submitted, and each keeps the
/// smaller of its final and ranking streams, so the bytes never depend on timing. At most a few
/// frames wait, so memory does not grow with the animation's length.
final class FinalDeflate: @unchecked Sendable {
    /// Frames submitted but not yet compressed, at most.
    static let backlog = 4

    private let deflater: Deflater?
    private let queue = DispatchQueue(label: "wavegen.apng.final-deflate")
    private let slots = DispatchSemaphore(value: FinalDeflate.backlog)
    /// Written only on `queue`; read after `streams()` has drained it.
    private var results: [[UInt8]] = []

    init(_ engine: Deflater.Engine?) {
        deflater = engine.map { Deflater($0) }
    }

    /// Queues the next frame: its filtered rows and their stream from the ranking deflate.
    func submit(_ raw: [UInt8], ranked: [UInt8]) {
        guard deflater != nil else {
            queue.sync { results.append(ranked) }
            return
        }
        slots.wait()
        queue.async { [self] in
            let again = deflater!.zlib(raw)
            results.append(again.count < ranked.count ? again : ranked)
            slots.signal()
        }
    }

    /// Every submitted frame's stream, in order, once all are compressed.
    func streams() -> [[UInt8]] {
        queue.sync { results }
    }
}
