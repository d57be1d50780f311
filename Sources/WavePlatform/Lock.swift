import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// A mutual-exclusion lock (a `pthread_mutex_t` at a fixed address), for state threads share.
public final class Lock: @unchecked Sendable {
    fileprivate let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }

    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock.
    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A lock with a condition variable (`pthread_cond_t`): threads wait for a change another thread
/// announces with `broadcast()` while holding the lock.
public final class Condition: @unchecked Sendable {
    private let mutex = Lock()
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    public func lock() { mutex.lock() }

    public func unlock() { mutex.unlock() }

    /// Runs `body` holding the lock.
    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try mutex.withLock(body)
    }

    /// Wakes every thread waiting on the condition; call it holding the lock.
    public func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits, holding the lock, until woken.
    public func wait() { pthread_cond_wait(condition, mutex.mutex) }

    /// Waits, holding the lock, until woken or until `deadline` (`Clock.wallSeconds`); false when
    /// the deadline passed.
    public func wait(until deadline: Double) -> Bool {
        let seconds = deadline.rounded(.down)
        var ts = timespec(tv_sec: Int(seconds), tv_nsec: Int((deadline - seconds) * 1e9))
        return pthread_cond_timedwait(condition, mutex.mutex, &ts) == 0
    }
}

/// A loop whose tasks may run at once.
public enum Concurrently {
    /// Runs `work` for 0..<`count`: on the cores when there are two or more tasks and two or more
    /// cores, else in order on this thread.
    public static func perform(_ count: Int, _ work: @Sendable (Int) -> Void) {
        if count > 1 && ProcessEnvironment.activeProcessorCount > 1 {
            DispatchQueue.concurrentPerform(iterations: count, execute: work)
        } else {
            for i in 0..<count { work(i) }
        }
    }

    /// `body` for each of 0..<`count` on the cores, the results in index order: one worker a
    /// core, each taking every worker-th index with a `State` of its own (`state()`, made once a
    /// worker: a coder's tables, a color cache), so what a worker keeps warm is kept across its indices.
    public static func map<State, T>(_ count: Int, state: @Sendable () -> State,
                                     _ body: @Sendable (inout State, Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        let workers = min(count, ProcessEnvironment.activeProcessorCount)
        let parts = SharedSlots<[T]>(count: workers)
        perform(workers) { w in
            var own = state()
            parts.set(w, stride(from: w, to: count, by: workers).map { body(&own, $0) })
        }
        let done = parts.values.map { $0 ?? [] }
        return (0..<count).map { done[$0 % workers][$0 / workers] }
    }

    /// `body` for each of 0..<`count` on the cores, the results in index order.
    public static func map<T>(_ count: Int, _ body: @Sendable (Int) -> T) -> [T] {
        map(count, state: {}) { _, i in body(i) }
    }
}

/// One slot per task of a concurrent loop (`Concurrently.perform`), each filled by the thread that
/// runs the task.
public final class SharedSlots<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var slots: [Value?]

    public init(count: Int) { slots = Array(repeating: nil, count: count) }

    public func set(_ i: Int, _ value: Value) { lock.withLock { slots[i] = value } }

    /// Every slot in order, nil where no task filled it.
    public var values: [Value?] { lock.withLock { slots } }
}

/// A dictionary that several threads read and fill: each lookup and each store holds a lock. A
/// value computed twice at once is stored twice; callers cache only values that come out the same.
public final class SharedDictionary<Key: Hashable, Value>: @unchecked Sendable {
    private let lock = Lock()
    private var values: [Key: Value] = [:]

    public init() {}

    public subscript(key: Key) -> Value? {
        get { lock.withLock { values[key] } }
        set { lock.withLock { values[key] = newValue } }
    }
}

/// A dictionary whose values several threads ask for and each value is made once: the first
/// thread to ask for a key makes its value, and the others asking for that key meanwhile wait for
/// it instead of making it again. A make that throws leaves the key unmade (the next asker tries).
/// A make may ask for keys of other dictionaries, never of its own.
public final class OnceDictionary<Key: Hashable, Value>: @unchecked Sendable {
    private let condition = Condition()
    private var values: [Key: Value] = [:]
    private var making: Set<Key> = []

    public init() {}

    /// The value made for `key`, nil when none is yet.
    public subscript(key: Key) -> Value? { condition.withLock { values[key] } }

    /// The value for `key`: made by `make` on this thread when no thread has made or is making it.
    public func value<E: Error>(_ key: Key, _ make: () throws(E) -> Value) throws(E) -> Value {
        condition.lock()
        while true {
            if let v = values[key] {
                condition.unlock()
                return v
            }
            if !making.contains(key) { break }
            condition.wait()
        }
        making.insert(key)
        condition.unlock()
        do {
            let v = try make()
            condition.withLock {
                values[key] = v
                making.remove(key)
                condition.broadcast()
            }
            return v
        } catch {
            condition.withLock {
                making.remove(key)
                condition.broadcast()
            }
            throw error
        }
    }
}
