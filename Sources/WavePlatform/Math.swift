// The C library's elementary functions on Double, for targets that import no C module. Each
// calls libm's own function, so results are the same bits on every path.

#if canImport(Glibc)
import Glibc
@inlinable public func sin(_ x: Double) -> Double { Glibc.sin(x) }
@inlinable public func cos(_ x: Double) -> Double { Glibc.cos(x) }
@inlinable public func tan(_ x: Double) -> Double { Glibc.tan(x) }
@inlinable public func asin(_ x: Double) -> Double { Glibc.asin(x) }
@inlinable public func acos(_ x: Double) -> Double { Glibc.acos(x) }
@inlinable public func atan(_ x: Double) -> Double { Glibc.atan(x) }
@inlinable public func exp(_ x: Double) -> Double { Glibc.exp(x) }
@inlinable public func log(_ x: Double) -> Double { Glibc.log(x) }
@inlinable public func log2(_ x: Double) -> Double { Glibc.log2(x) }
@inlinable public func log10(_ x: Double) -> Double { Glibc.log10(x) }
@inlinable public func cbrt(_ x: Double) -> Double { Glibc.cbrt(x) }
@inlinable public func atan2(_ x: Double, _ y: Double) -> Double { Glibc.atan2(x, y) }
@inlinable public func hypot(_ x: Double, _ y: Double) -> Double { Glibc.hypot(x, y) }
@inlinable public func pow(_ x: Double, _ y: Double) -> Double { Glibc.pow(x, y) }
@inlinable public func fmod(_ x: Double, _ y: Double) -> Double { Glibc.fmod(x, y) }
#elseif canImport(Musl)
import Musl
@inlinable public func sin(_ x: Double) -> Double { Musl.sin(x) }
@inlinable public func cos(_ x: Double) -> Double { Musl.cos(x) }
@inlinable public func tan(_ x: Double) -> Double { Musl.tan(x) }
@inlinable public func asin(_ x: Double) -> Double { Musl.asin(x) }
@inlinable public func acos(_ x: Double) -> Double { Musl.acos(x) }
@inlinable public func atan(_ x: Double) -> Double { Musl.atan(x) }
@inlinable public func exp(_ x: Double) -> Double { Musl.exp(x) }
@inlinable public func log(_ x: Double) -> Double { Musl.log(x) }
@inlinable public func log2(_ x: Double) -> Double { Musl.log2(x) }
@inlinable public func log10(_ x: Double) -> Double { Musl.log10(x) }
@inlinable public func cbrt(_ x: Double) -> Double { Musl.cbrt(x) }
@inlinable public func atan2(_ x: Double, _ y: Double) -> Double { Musl.atan2(x, y) }
@inlinable public func hypot(_ x: Double, _ y: Double) -> Double { Musl.hypot(x, y) }
@inlinable public func pow(_ x: Double, _ y: Double) -> Double { Musl.pow(x, y) }
@inlinable public func fmod(_ x: Double, _ y: Double) -> Double { Musl.fmod(x, y) }
#elseif canImport(Darwin)
import Darwin
@inlinable public func sin(_ x: Double) -> Double { Darwin.sin(x) }
@inlinable public func cos(_ x: Double) -> Double { Darwin.cos(x) }
@inlinable public func tan(_ x: Double) -> Double { Darwin.tan(x) }
@inlinable public func asin(_ x: Double) -> Double { Darwin.asin(x) }
@inlinable public func acos(_ x: Double) -> Double { Darwin.acos(x) }
@inlinable public func atan(_ x: Double) -> Double { Darwin.atan(x) }
@inlinable public func exp(_ x: Double) -> Double { Darwin.exp(x) }
@inlinable public func log(_ x: Double) -> Double { Darwin.log(x) }
@inlinable public func log2(_ x: Double) -> Double { Darwin.log2(x) }
@inlinable public func log10(_ x: Double) -> Double { Darwin.log10(x) }
@inlinable public func cbrt(_ x: Double) -> Double { Darwin.cbrt(x) }
@inlinable public func atan2(_ x: Double, _ y: Double) -> Double { Darwin.atan2(x, y) }
@inlinable public func hypot(_ x: Double, _ y: Double) -> Double { Darwin.hypot(x, y) }
@inlinable public func pow(_ x: Double, _ y: Double) -> Double { Darwin.pow(x, y) }
@inlinable public func fmod(_ x: Double, _ y: Double) -> Double { Darwin.fmod(x, y) }
#endif
