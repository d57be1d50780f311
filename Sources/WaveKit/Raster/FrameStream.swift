import Dispatch
import WavePlatform

extension FrameRenderer {
    /// Renders every frame of the loop and hands them to `body` in order. Producer threads render
    /// frames into a small ring of buffers while `body` (the encoder) consumes them on this thread,
    /// so rendering and encoding overlap. Memory stays at the ring's few frames whatever the frame
    /// count; the output does not depend on `threads` (0 = one producer per core; 1 = everything
    /// on this thread). A small loop (below `serialLimit` pixels × frames), where a ring's
    /// hand-offs cost more than they save, is drawn whole on the cores first (a worker per core, each
    /// with its own color cache; at most 8 MB: 4 M indices and as many matte marks), then handed over in order.
    public func renderAll(threads: Int = 0, _ body: (Int, [UInt8]) throws -> Void) rethrows {
        try renderAll(threads: threads) { k, indices, _ in try body(k, indices) }
    }

    /// Renders every frame as `renderAll(threads:_:)` does, handing `body` each frame's matte plane
    /// too (`render(frame:into:matte:cache:)`; empty without `marksMatte`).
    public func renderAll(threads: Int = 0, _ body: (Int, [UInt8], [UInt8]) throws -> Void) rethrows {
        let count = timing.frameCount
        let cores = ProcessEnvironment.activeProcessorCount
        let producers = Parallelism.clamped(threads > 0 ? threads : (config.width * config.height * count < serialLimit ? 1 : cores))
        if producers <= 1 && threads == 0 && cores > 1 && count > 1 {
            // A small loop: every frame drawn at once on the cores, then handed over in order.
            let drawn = Concurrently.map(count, state: { ColorCache() }) { cache, k in
                var frame: [UInt8] = [], matte: [UInt8] = []
                render(frame: k, into: &frame, matte: &matte, cache: &cache)
                return (frame, matte)
            }
            for (k, (frame, matte)) in drawn.enumerated() { try body(k, frame, matte) }
            return
        }
        if producers <= 1 {
            var frame: [UInt8] = [], matte: [UInt8] = [], cache = ColorCache()
            for k in 0..<count {
                render(frame: k, into: &frame, matte: &matte, cache: &cache)
                try body(k, frame, matte)
            }
            return
        }
        let ring = FrameRing(slots: 2 * producers)
        // The producers run on threads of their own, not on Dispatch's pool: this thread waits for
        // their frames, and when it is itself one of the pool's threads (a render inside
        // `Concurrently.perform`: a fit's candidates side by side, a build's outputs) with the others
        // busy the same way, work queued on the pool would wait for the pool to grow (about a
        // second on Linux) before any frame is drawn.
        let group = DispatchGroup()
        for t in 0..<producers {
            group.enter()
            ProcessEnvironment.detachThread { [group] in
                defer { group.leave() }
                // One color cache a producer, kept warm across its frames.
                var cache = ColorCache()
                var k = t
                while k < count, ring.claim(k) {
                    ring.slots[k % ring.slots.count].render(self, frame: k, cache: &cache)
                    ring.publish(k)
                    k += producers
                }
            }
        }
        do {
            for k in 0..<count {
                ring.await(k)
                let slot = ring.slots[k % ring.slots.count]
                try body(k, slot.frame, slot.matte)
                ring.release(k)
            }
        } catch {
            ring.cancel()
            group.wait()
            throw error
        }
        group.wait()
    }

    /// Below this many pixels × frames a loop is drawn whole before it is handed over.
    static let serialPixels = 4_000_000

    /// The same for true-color (WebP, APNG) frames: their encoders take several times as long as the
    /// frames (orb: 70 against 27 ms), so frames drawn on other threads while the encoder works pay
    /// for the threads from much smaller loops than a GIF's, whose encoder takes about the frames' time.
    static let serialPixelsBeforeSlowEncoder = 500_000

    /// The loop size below which `renderAll` (with `threads` 0) draws the whole loop on the cores first.
    var serialLimit: Int {
        if case .gif = target { return FrameRenderer.serialPixels }
        return FrameRenderer.serialPixelsBeforeSlowEncoder
    }
}

/// The buffers producers render into and the consumer reads from, in frame order: slot k % n
/// holds frame k once it is published, and is free again once the consumer releases it.
private final class FrameRing: @unchecked Sendable {
    let slots: [FrameSlot]
    private let free: [DispatchSemaphore]
    private let ready: [DispatchSemaphore]
    private let lock = Lock()
    private var cancelled = false

    init(slots count: Int) {
        slots = (0..<count).map { _ in FrameSlot() }
        free = (0..<count).map { _ in DispatchSemaphore(value: 1) }
        ready = (0..<count).map { _ in DispatchSemaphore(value: 0) }
    }

    /// Waits until frame k's slot is free; false when the render was cancelled.
    func claim(_ k: Int) -> Bool {
        free[k % slots.count].wait()
        lock.lock()
        defer { lock.unlock() }
        return !cancelled
    }

    func publish(_ k: Int) { ready[k % slots.count].signal() }
    func await(_ k: Int) { ready[k % slots.count].wait() }
    func release(_ k: Int) { free[k % slots.count].signal() }

    /// Stops the producers: every waiting claim returns false.
    func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
        for s in free { s.signal() }
    }
}

/// One frame buffer of the ring and its matte plane; each render owns exactly one slot at a time
/// (the color cache is the producer's, kept across its frames).
final class FrameSlot: @unchecked Sendable {
    var frame: [UInt8] = []
    var matte: [UInt8] = []

    func render(_ renderer: FrameRenderer, frame index: Int, cache: inout ColorCache) {
        renderer.render(frame: index, into: &frame, matte: &matte, cache: &cache)
    }
}
