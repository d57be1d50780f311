import Testing
@testable import WaveGIF
import WaveTestSupport

/// `ColorSet` reads its words bit by bit: its members and its order must be those of the plain forms.
@Suite struct ColorSetTests {
    @Test func membersAndOrderAreThoseOfThePlainForms() {
        var random = SeededGenerator(state: 5)
        var sets: [ColorSet] = [ColorSet(), ColorSet(all: 256), ColorSet(all: 1), ColorSet(all: 64), ColorSet(all: 65)]
        for n in 0..<200 {
            var s = ColorSet()
            for _ in 0..<(n % 40) { s.insert(Int(random.next() % 256)) }
            // Sets differing only in a late word, so the order looks past the first.
            if n % 3 == 0, let last = sets.last { s = last; s.insert(192 + Int(random.next() % 64)) }
            sets.append(s)
        }
        for s in sets {
            #expect(s.members == (0..<256).filter { s.contains($0) })
            #expect(s.members.count == s.count)
            for o in sets.prefix(60) {
                #expect(s.wordsPrecede(o) == s.words.lexicographicallyPrecedes(o.words))
            }
        }
    }
}
