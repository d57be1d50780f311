#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Time: a monotonic clock for deadlines and intervals, the wall clock for dates, and sleeping.
public enum Clock {
    /// Seconds on a clock that never jumps (`CLOCK_MONOTONIC`), for deadlines and elapsed times.
    public static var monotonicSeconds: Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Nanoseconds on the monotonic clock, for elapsed times.
    public static var monotonicNanoseconds: UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Seconds since 1970-01-01 00:00:00 UTC on the wall clock (`CLOCK_REALTIME`), which may jump:
    /// for deadlines of `Condition.wait(until:)`.
    public static var wallSeconds: Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Whole seconds since 1970-01-01 00:00:00 UTC (`time`).
    public static var unixSeconds: Int { Int(time(nil)) }

    /// The UTC calendar fields of `seconds` since 1970 (`gmtime_r`): year, month 1–12, day 1–31,
    /// weekday 0 (Sunday)–6, hour, minute, second.
    public static func utcFields(_ seconds: Int) -> (year: Int, month: Int, day: Int, weekday: Int, hour: Int, minute: Int, second: Int) {
        var t = time_t(seconds)
        var fields = tm()
        gmtime_r(&t, &fields)
        return (Int(fields.tm_year) + 1900, Int(fields.tm_mon) + 1, Int(fields.tm_mday), Int(fields.tm_wday),
                Int(fields.tm_hour), Int(fields.tm_min), Int(fields.tm_sec))
    }

    /// Sleeps the calling thread for `seconds` (`nanosleep`, resumed after signals).
    public static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
