import Testing
import WaveKit

@Suite struct KeyAdviceTests {
    /// Swapped neighbours, the commonest typo, are one edit; the rest is Levenshtein distance.
    @Test(arguments: [("width", "wdith", 1), ("width", "widht", 1), ("level", "levle", 1), ("form", "from", 1),
                      ("kitten", "sitting", 3), ("", "abc", 3), ("abc", "abc", 0), ("ab", "ba", 1), ("abc", "ca", 3)])
    func distance(a: String, b: String, d: Int) {
        #expect(KeyAdvice.distance(a, b) == d)
        #expect(KeyAdvice.distance(b, a) == d)
    }
}
