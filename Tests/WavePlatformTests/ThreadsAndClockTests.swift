import Dispatch
import Foundation
import Testing
import WavePlatform

/// Locks, conditions, the shared dictionary, the clock, C formatting and the process's
/// environment, each held against what Foundation or Dispatch says.
@Suite struct ThreadsAndClockTests {
    @Test func aLockKeepsCountsExact() {
        final class Counter: @unchecked Sendable { var value = 0; let lock = Lock() }
        let counter = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<20_000 { counter.lock.withLock { counter.value += 1 } }
        }
        #expect(counter.value == 160_000)
    }

    @Test func aSharedDictionaryKeepsEveryStore() {
        let shared = SharedDictionary<Int, Int>()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for k in 0..<2_000 { shared[worker * 10_000 + k] = k * k }
        }
        for worker in 0..<8 { for k in stride(from: 0, to: 2_000, by: 97) { #expect(shared[worker * 10_000 + k] == k * k) } }
        #expect(shared[-1] == nil)
    }

    /// Threads asking for the same keys at once: each value is made once, by one of them, and
    /// every asker gets it; a make that throws leaves its key to the next asker.
    @Test func aOnceDictionaryMakesEachValueOnce() {
        let once = OnceDictionary<Int, Int>()
        let makes = Lock()
        nonisolated(unsafe) var made: [Int: Int] = [:]
        let got = SharedDictionary<Int, [Int]>()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            var seen: [Int] = []
            for k in 0..<50 {
                seen.append(once.value(k) {
                    makes.withLock { made[k, default: 0] += 1 }
                    // Slow enough that other threads ask while it is made.
                    var x = 0
                    for i in 0..<20_000 { x &+= i &* k }
                    return k * k + (x == -1 ? 1 : 0)
                })
            }
            got[worker] = seen
        }
        #expect(made.count == 50 && made.values.allSatisfy { $0 == 1 }, "\(made.filter { $0.value != 1 })")
        for worker in 0..<8 { #expect(got[worker] == (0..<50).map { $0 * $0 }) }
        struct Failed: Error {}
        #expect(throws: Failed.self) { try once.value(-1) { () throws(Failed) -> Int in throw Failed() } }
        #expect(once[-1] == nil)
        #expect(once.value(-1) { 7 } == 7 && once[-1] == 7)
    }

    #if os(Linux)
    /// A thread that lowers its priority gets a nice of 10 (read back from /proc as the kernel
    /// keeps it); the thread that started it keeps its own.
    /// A concurrent map returns every result in index order, whatever the workers; each worker's
    /// state is made once and kept across the indices it takes.
    @Test(arguments: [0, 1, 2, 7, 1000])
    func aConcurrentMapKeepsTheOrder(count: Int) {
        #expect(Concurrently.map(count) { $0 * $0 } == (0..<count).map { $0 * $0 })
        let seen = Concurrently.map(count, state: { (id: Int.random(in: 0..<Int.max), taken: 0) }) { state, i in
            state.taken += 1
            return (i, state.id, state.taken)
        }
        #expect(seen.map(\.0) == Array(0..<count))
        // Each worker's indices come in order with its own count of them: its state was kept.
        var lastTaken: [Int: Int] = [:]
        for (_, id, taken) in seen {
            #expect(taken == (lastTaken[id] ?? 0) + 1)
            lastTaken[id] = taken
        }
        #expect(lastTaken.count <= max(1, ProcessEnvironment.activeProcessorCount))
    }

    @Test func aThreadLowersItsOwnPriorityOnly() throws {
        @Sendable func nice(_ path: String) throws -> Int? {
            let stat = try String(contentsOfFile: path, encoding: .utf8)
            // Field 19 of stat, counted after the command's closing parenthesis.
            guard let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return Int(fields[16])
        }
        let before = try nice("/proc/thread-self/stat")
        final class Seen: @unchecked Sendable { var nice: Int?; let condition = Condition(); var done = false }
        let seen = Seen()
        ProcessEnvironment.detachThread {
            ProcessEnvironment.lowerThisThreadsPriority()
            let n = try? nice("/proc/thread-self/stat")
            seen.condition.withLock { seen.nice = n; seen.done = true; seen.condition.broadcast() }
        }
        seen.condition.withLock { while !seen.done { _ = seen.condition.wait(until: Clock.wallSeconds + 10) } }
        #expect(seen.nice == min(19, (before ?? 0) + 10) || seen.nice == 10)
        #expect(try nice("/proc/thread-self/stat") == before)
    }
    #endif

    @Test func aConditionWakesAWaiter() {
        final class Flag: @unchecked Sendable { var set = false; let condition = Condition() }
        let flag = Flag()
        ProcessEnvironment.detachThread {
            Clock.sleep(seconds: 0.05)
            flag.condition.withLock { flag.set = true; flag.condition.broadcast() }
        }
        let start = Clock.monotonicSeconds
        let woken: Bool = flag.condition.withLock {
            while !flag.set { if !flag.condition.wait(until: Clock.wallSeconds + 10) { return false } }
            return true
        }
        #expect(woken)
        #expect(Clock.monotonicSeconds - start < 5, "the broadcast did not wake the waiter")
    }

    @Test func aConditionTimesOut() {
        let condition = Condition()
        let start = Clock.monotonicSeconds
        let woken = condition.withLock { condition.wait(until: Clock.wallSeconds + 0.1) }
        let waited = Clock.monotonicSeconds - start
        #expect(!woken)
        #expect(waited >= 0.09 && waited < 5)
        // A deadline already past returns at once.
        #expect(!condition.withLock { condition.wait(until: Clock.wallSeconds - 1) })
    }

    @Test func clocksAgreeWithFoundation() {
        #expect(abs(Clock.wallSeconds - Date().timeIntervalSince1970) < 1)
        #expect(abs(Clock.unixSeconds - Int(Date().timeIntervalSince1970)) <= 1)
        let a = Clock.monotonicSeconds, na = Clock.monotonicNanoseconds
        Clock.sleep(seconds: 0.05)
        let b = Clock.monotonicSeconds, nb = Clock.monotonicNanoseconds
        #expect(b - a >= 0.049 && nb - na >= 49_000_000)
        Clock.sleep(seconds: 0)
        Clock.sleep(seconds: -1)
    }

    @Test(arguments: [0, 951_782_400, 1_709_164_800, 1_700_000_000, 2_147_483_647, 4_102_444_799, -86_400])
    func calendarFieldsMatchFoundation(seconds: Int) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let c = calendar.dateComponents([.year, .month, .day, .weekday, .hour, .minute, .second],
                                        from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        let f = Clock.utcFields(seconds)
        #expect(f.year == c.year && f.month == c.month && f.day == c.day)
        #expect(f.weekday + 1 == c.weekday)  // Foundation counts Sunday as 1
        #expect(f.hour == c.hour && f.minute == c.minute && f.second == c.second)
    }

    @Test func cFormatMatchesFoundation() {
        let cases: [(String, [CVarArg])] = [
            ("%5.1f", [3.14159]), ("%-8ld|", [42]), ("%08.3f", [-2.5]), ("%ld%%", [99]), ("%6.2f s %4ld", [0.125, 7]),
            ("%e", [1e-300]), ("%.0f", [2.5]), ("no arguments", []), ("%12.6f", [Double.pi * 1e6]),
        ]
        for (format, arguments) in cases {
            #expect(cFormat(format, arguments) == String(format: format, arguments: arguments), "\(format)")
        }
        #expect(cFormat("") == "")
    }

    @Test func theEnvironmentMatchesFoundation() {
        #expect(ProcessEnvironment.value("PATH") == ProcessInfo.processInfo.environment["PATH"])
        #expect(ProcessEnvironment.value("WAVEGEN_SURELY_NOT_SET_\(UUID().uuidString.prefix(8))") == nil)
        #expect(ProcessEnvironment.id == ProcessInfo.processInfo.processIdentifier)
        // The count is narrowed to the processors online and to the thread's affinity
        // (Foundation's own count does not read the affinity, so it is not compared).
        let online = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #expect(ProcessEnvironment.activeProcessorCount <= online)
        #expect(ProcessEnvironment.activeProcessorCount >= 1)
        if let status = try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8),
           let allowed = ProcessEnvironment.allowedProcessors(status: status) {
            #expect(ProcessEnvironment.activeProcessorCount <= allowed)
        }
    }

    @Test func theAffinityMaskIsCounted() {
        let status = "Name:\tcat\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n"
        #expect(ProcessEnvironment.allowedProcessors(status: status) == 2)
        #expect(ProcessEnvironment.allowedProcessors(status: "Cpus_allowed:\t1\n") == 1)
        #expect(ProcessEnvironment.allowedProcessors(status: "Cpus_allowed:\tffffffff,ffffffff,00000005\n") == 66)
        #expect(ProcessEnvironment.allowedProcessors(status: "Cpus_allowed:\t0\n") == nil)
        #expect(ProcessEnvironment.allowedProcessors(status: "Cpus_allowed:\tzz\n") == nil)
        #expect(ProcessEnvironment.allowedProcessors(status: "Name:\tcat\n") == nil)
    }

    @Test func aQuotaIsRoundedUpToProcessors() {
        #expect(ProcessEnvironment.quotaProcessors(cpuMax: "max 100000\n") == nil)
        #expect(ProcessEnvironment.quotaProcessors(cpuMax: "200000 100000\n") == 2)
        #expect(ProcessEnvironment.quotaProcessors(cpuMax: "150000 100000") == 2)
        #expect(ProcessEnvironment.quotaProcessors(cpuMax: "50000 100000") == 1)
        #expect(ProcessEnvironment.quotaProcessors(cpuMax: "-1 100000") == nil)
        #expect(ProcessEnvironment.quotaProcessors(cpuMax: "garbage") == nil)
    }

    /// Under `taskset -c 0` a child sees one processor allowed; the parser reads the real file.
    @Test func anAffinityOfOneProcessorReadsAsOne() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/taskset") else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
        process.arguments = ["-c", "0", "cat", "/proc/thread-self/status"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(ProcessEnvironment.allowedProcessors(status: String(decoding: data, as: UTF8.self)) == 1)
    }
}

/// `cFormat` takes a variadic list; the tests hold an array of arguments.
private func cFormat(_ format: String, _ arguments: [CVarArg]) -> String {
    switch arguments.count {
    case 0: return WavePlatform.cFormat(format)
    case 1: return WavePlatform.cFormat(format, arguments[0])
    default: return WavePlatform.cFormat(format, arguments[0], arguments[1])
    }
}
