#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Text formatted by the C library's `printf` rules (`vsnprintf`): fixed-width columns of numbers.
/// Pass `Int` with `%ld`, `Double` with `%f`; strings go around the format, not through `%s`.
public func cFormat(_ format: String, _ arguments: CVarArg...) -> String {
    withVaList(arguments) { first in
        let needed = Int(vsnprintf(nil, 0, format, first))
        guard needed > 0 else { return "" }
        return withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: needed + 1)
            _ = vsnprintf(&buffer, buffer.count, format, list)
            return String(decoding: buffer.prefix(needed).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
