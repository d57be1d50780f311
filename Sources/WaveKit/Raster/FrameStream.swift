import Dispatch
import Foundation

extension FrameRenderer {
    /// Renders every frame of the loop and hands them to `body` in order. Frames are rendered a
    /// batch at a time across the cores while `body` (the encoder) consumes the previous batch, so
    /// rendering and encoding overlap. Memory stays at two batches whatever the frame count; the
    /// output does not depend on `threads` (0 = one per core, 1 = everything on this thread).
    public func renderAll(threads: Int = 0, _ body: (Int, [UInt8]) throws -> Void) rethrows {
        let count = timing.frameCount
        let workers = max(1, threads > 0 ? threads : ProcessInfo.processInfo.activeProcessorCount)
        if workers == 1 {
            let slot = FrameSlot()
            for k in 0..<count {
                slot.render(self, frame: k)
                try body(k, slot.frame)
            }
            return
        }
        let batch = max(1, min(count, workers * 2))
        var current = (0..<batch).map { _ in FrameSlot() }
        var spare = (0..<batch).map { _ in FrameSlot() }
        @Sendable func render(_ slots: [FrameSlot], from start: Int, count n: Int) {
            DispatchQueue.concurrentPerform(iterations: n) { j in slots[j].render(self, frame: start + j) }
        }
        render(current, from: 0, count: min(batch, count))
        var start = 0
        while start < count {
            let n = min(batch, count - start)
            let next = start + n
            let group = DispatchGroup()
            if next < count {
                let slots = spare, m = min(batch, count - next)
                DispatchQueue.global().async(group: group) { render(slots, from: next, count: m) }
            }
            do {
                for j in 0..<n { try body(start + j, current[j].frame) }
            } catch {
                group.wait()
                throw error
            }
            group.wait()
            swap(&current, &spare)
            start = next
        }
    }
}

/// One frame buffer and its color cache; each concurrent iteration owns exactly one slot.
final class FrameSlot: @unchecked Sendable {
    var frame: [UInt8] = []
    var cache = ColorCache()

    func render(_ renderer: FrameRenderer, frame index: Int) {
        renderer.render(frame: index, into: &frame, cache: &cache)
    }
}
