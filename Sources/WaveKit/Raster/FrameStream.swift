import Dispatch
import Foundation

extension FrameRenderer {
    /// Renders every frame of the loop, several at a time across the cores, and hands them to `body`
    /// in order. Memory stays at a few frames per core whatever the frame count; the output does not
    /// depend on `threads` (0 = one per core).
    public func renderAll(threads: Int = 0, _ body: (Int, [UInt8]) throws -> Void) rethrows {
        let count = timing.frameCount
        let workers = max(1, threads > 0 ? threads : ProcessInfo.processInfo.activeProcessorCount)
        let slots = (0..<min(count, workers * 2)).map { _ in FrameSlot() }
        var start = 0
        while start < count {
            let n = min(slots.count, count - start)
            let first = start
            if workers == 1 || n == 1 {
                for j in 0..<n { slots[j].render(self, frame: first + j) }
            } else {
                DispatchQueue.concurrentPerform(iterations: n) { j in slots[j].render(self, frame: first + j) }
            }
            for j in 0..<n { try body(first + j, slots[j].frame) }
            start += n
        }
    }
}

/// One frame buffer and its color cache; each concurrent iteration owns exactly one slot.
private final class FrameSlot: @unchecked Sendable {
    var frame: [UInt8] = []
    var cache = ColorCache()

    func render(_ renderer: FrameRenderer, frame index: Int) {
        renderer.render(frame: index, into: &frame, cache: &cache)
    }
}
