// The only files in the package that import the C library by name. Everything else reaches the
// operating system through the functions of this target, so it compiles on Linux and macOS alike.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("WavePlatform knows Glibc, Musl and Darwin only")
#endif

/// The text of a C library error number (`strerror`).
public func errorText(_ code: Int32) -> String {
    String(cString: strerror(code))
}

/// Byte comparisons and frees for buffers C libraries allocate.
public enum CMemory {
    /// Whether the `count` bytes at `a` and `b` are the same (`memcmp`).
    @inlinable
    public static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        memcmp(a, b, count) == 0
    }

    /// Frees memory a C library allocated with `malloc`.
    @inlinable
    public static func release(_ pointer: UnsafeMutableRawPointer?) {
        free(pointer)
    }
}

/// C strings kept outside Swift's memory management, for tables a signal handler reads.
public enum CString {
    /// A `malloc`ed copy of `text` (`strdup`); free it with `CMemory.release`.
    public static func duplicate(_ text: String) -> UnsafeMutablePointer<CChar>? { strdup(text) }

    /// Whether the C string at `pointer` is `text` (`strcmp`).
    public static func equals(_ pointer: UnsafePointer<CChar>, _ text: String) -> Bool { strcmp(pointer, text) == 0 }

    /// Removes the file named by the C string at `pointer` (`unlink`); async-signal-safe.
    public static func unlinkFile(_ pointer: UnsafePointer<CChar>) { _ = unlink(pointer) }
}
