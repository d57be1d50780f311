import Dispatch
import WavePlatform

/// Runs work items on up to `workers` threads and hands the results over in index order, whatever
/// order they finish in; returns them all, in order. Callbacks run one at a time.
public enum OrderedWork {
    @discardableResult
    public static func run<R>(count: Int, workers: Int, work: @escaping (Int) -> R, started: @escaping (Int, Int) -> Void,
                       deliver: @escaping (Int, R) -> Void) -> [R] {
        guard count > 0 else { return [] }
        let state = State<R>(count: count)
        let body = { (_: Int) in
            while true {
                let i: Int? = state.lock.withLock {
                    guard state.next < count else { return nil }
                    let i = state.next
                    state.next += 1
                    started(i + 1, i)
                    return i
                }
                guard let i else { return }
                let r = work(i)
                state.lock.withLock {
                    state.results[i] = r
                    while state.delivered < count, let ready = state.results[state.delivered] {
                        deliver(state.delivered, ready)
                        state.delivered += 1
                    }
                }
            }
        }
        let n = max(1, min(workers, count))
        if n == 1 {
            body(0)
        } else {
            let box = UncheckedBox(body)
            DispatchQueue.concurrentPerform(iterations: n) { box.value($0) }
        }
        return state.lock.withLock { state.results.map { $0! } }
    }

    private final class State<R>: @unchecked Sendable {
        let lock = Lock()
        var next = 0
        var delivered = 0
        var results: [R?]
        init(count: Int) { results = Array(repeating: nil, count: count) }
    }

    private struct UncheckedBox<T>: @unchecked Sendable {
        let value: T
        init(_ value: T) { self.value = value }
    }
}
