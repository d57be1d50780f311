#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The running process: its environment, id, the processors it may use, and threads it starts.
public enum ProcessEnvironment {
    /// The environment variable `name`, or nil when it is not set (`getenv`).
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The process id (`getpid`).
    public static var id: Int32 { getpid() }

    /// The processors this process may use, at least 1: those online (`sysconf(_SC_NPROCESSORS_ONLN)`),
    /// narrowed on Linux to the thread's CPU affinity (`Cpus_allowed` in `/proc/thread-self/status`,
    /// as `taskset` sets it) and to a container's CPU quota (cgroup v2 `cpu.max`, or v1
    /// `cpu.cfs_quota_us` ÷ `cpu.cfs_period_us`, rounded up). Work split over more threads than
    /// this only waits for a processor. Read once per process.
    public static let activeProcessorCount: Int = processorsAvailable()

    private static func processorsAvailable() -> Int {
        var count = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #if os(Linux)
        if let status = text("/proc/thread-self/status") ?? text("/proc/self/status"),
           let allowed = allowedProcessors(status: status) {
            count = min(count, allowed)
        }
        if let cpuMax = text("/sys/fs/cgroup/cpu.max"), let quota = quotaProcessors(cpuMax: cpuMax) {
            count = min(count, quota)
        } else {
            for folder in ["/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"] {
                guard let quota = text(folder + "/cpu.cfs_quota_us"),
                      let period = text(folder + "/cpu.cfs_period_us"),
                      let processors = quotaProcessors(cpuMax: quota + " " + period) else { continue }
                count = min(count, processors)
                break
            }
        }
        #endif
        return max(1, count)
    }

    /// The number of processors in the `Cpus_allowed:` mask of a `/proc/PID/status` text (hex words,
    /// comma-separated, most significant first), or nil when the text has no such line or it does not parse.
    public static func allowedProcessors(status: String) -> Int? {
        for line in status.split(separator: "\n") where line.hasPrefix("Cpus_allowed:") {
            let mask = line.dropFirst("Cpus_allowed:".count).filter { $0 != " " && $0 != "\t" }
            var count = 0
            for word in mask.split(separator: ",") {
                guard !word.isEmpty, let bits = UInt64(word, radix: 16) else { return nil }
                count += bits.nonzeroBitCount
            }
            return count > 0 ? count : nil
        }
        return nil
    }

    /// The processors a CPU quota allows, rounded up: from a cgroup v2 `cpu.max` text ("QUOTA PERIOD",
    /// in microseconds), or nil when there is no limit ("max …", a negative quota as cgroup v1 writes
    /// "no limit") or the text does not parse.
    public static func quotaProcessors(cpuMax: String) -> Int? {
        let fields = cpuMax.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        guard fields.count >= 2, let quota = Int(fields[0]), let period = Int(fields[1]),
              quota > 0, period > 0 else { return nil }
        return max(1, (quota + period - 1) / period)
    }

    /// A small system file's text, or nil when it cannot be read.
    private static func text(_ path: String) -> String? {
        guard let bytes = try? FileSystem.read(path, upTo: 1 << 16), !bytes.isEmpty else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Runs `body` on a new detached thread (`pthread_create`), which ends when `body` returns.
    public static func detachThread(_ body: @escaping @Sendable () -> Void) {
        final class Box { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let started = pthread_create(&thread, nil, { raw in
            #if canImport(Darwin)
            let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
            #else
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            #endif
            box.body()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            fatalError("cannot start a thread: \(errorText(started))")
        }
        #if canImport(Darwin)
        pthread_detach(thread!)
        #else
        pthread_detach(thread)
        #endif
    }
}

extension ProcessEnvironment {
    /// Lowers the calling thread's scheduling priority (a nice of 10 on Linux, the utility class on
    /// Darwin), for work that should give way to what a user is waiting for. Lasts until the thread
    /// ends; where the system does not allow it, nothing changes.
    public static func lowerThisThreadsPriority() {
        #if canImport(Darwin)
        _ = pthread_set_qos_class_self_np(QOS_CLASS_UTILITY, 0)
        #elseif os(Linux)
        // On Linux a thread's nice value is its own: PRIO_PROCESS with the thread's id sets just it.
        // The id is the last part of /proc/thread-self ("PID/task/TID"; gettid is not imported).
        var link = [CChar](repeating: 0, count: 64)
        let n = readlink("/proc/thread-self", &link, link.count - 1)
        guard n > 0, let tid = String(decoding: link.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .split(separator: "/").last.flatMap({ id_t($0) }) else { return }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), tid, 10)
        #endif
    }

    /// Ends the process with `code` (`exit`: buffered C streams are flushed).
    public static func exit(_ code: Int32) -> Never { systemExit(code) }
}

private func systemExit(_ code: Int32) -> Never { exit(code) }
