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

    /// The processors online (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1.
    public static var activeProcessorCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
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
    /// Ends the process with `code` (`exit`: buffered C streams are flushed).
    public static func exit(_ code: Int32) -> Never { systemExit(code) }
}

private func systemExit(_ code: Int32) -> Never { exit(code) }
