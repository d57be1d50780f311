import Testing
import WaveKit

@Suite struct NumberTextTests {
    @Test(arguments: [(2.0, 3, "2"), (0.125, 2, "0.13"), (1.0 / 3, 3, "0.333"), (-1.5, 0, "-2"), (1e20, 1, "1e+20")])
    func decimal(v: Double, places: Int, text: String) {
        #expect(NumberText.decimal(v, places: places) == text)
    }

    @Test(arguments: [(0.5, 2, "0.50"), (3.14159, 1, "3.1"), (-0.04, 1, "0.0"), (-2.25, 1, "-2.3"), (42, 0, "42"), (9.99, 1, "10.0")])
    func fixed(v: Double, places: Int, text: String) {
        #expect(NumberText.fixed(v, places: places) == text)
    }

    /// One unit style for every size, the unit changing only where the number would need four digits.
    @Test(arguments: [(0, "0 B"), (999, "999 B"), (1000, "1.0 kB"), (3781, "3.8 kB"), (42778, "42.8 kB"),
                      (999_949, "999.9 kB"), (999_950, "1.0 MB"), (1_234_567, "1.2 MB")])
    func bytes(n: Int, text: String) {
        #expect(NumberText.bytes(n) == text)
    }

    @Test func smallHelpers() {
        #expect(NumberText.grouped(43082) == "43,082")
        #expect(NumberText.grouped(999) == "999")
        #expect(NumberText.grouped(-1_234_567) == "-1,234,567")
        #expect(NumberText.padded(7, digits: 4) == "0007")
        #expect(NumberText.padded(12345, digits: 4) == "12345")
        #expect(NumberText.exact(3) == "3")
        #expect(NumberText.exact(0.1) == "0.1")
    }

    /// Sizes as `--max-bytes` takes them: decimal and binary units, any case; nothing else.
    @Test func byteSizes() {
        let good: [(String, Int)] = [("40000", 40000), ("40000B", 40000), ("40kB", 40000), ("40k", 40000), ("40 KB", 40000),
                                     ("39KiB", 39936), ("39kib", 39936), ("1.5MB", 1_500_000), ("1M", 1_000_000), ("1MiB", 1_048_576), ("0.5k", 500)]
        for (text, n) in good { #expect(NumberText.byteSize(text) == n, "\(text)") }
        for text in ["", "0", "-5", "1x", "kB", "1.5", "0.0001k", "1..5k", ".5k", "5.k", "1e3", "40 000 kB x", "1GB"] {
            #expect(NumberText.byteSize(text) == nil, "\(text)")
        }
    }
}
