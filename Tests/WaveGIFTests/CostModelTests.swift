import Testing
@testable import WaveGIF
import WaveTestSupport

/// `CostModel` keeps its sets flat for speed; the plain form below (lists of lists, each swap's
/// sets found by scanning them) must cost every order the same and improve every order into the same.
@Suite struct CostModelTests {
    /// The plain model: each set's cost from its member list, swaps weighed as `improve` weighs them.
    struct Plain {
        let sets: [(members: [Int], weight: Int)]
        let entries: Int
        let needsKey: Bool

        func setCost(_ s: Int, _ position: [Int]) -> Int {
            var top = needsKey ? sets[s].members.count : 0
            for m in sets[s].members { top = max(top, position[m]) }
            return sets[s].weight * GIFStream.minimumCodeSize(maxIndex: top)
        }

        func positions(_ order: [Int]) -> [Int] {
            var position = [Int](repeating: 0, count: entries)
            for (p, index) in order.enumerated() { position[index] = p }
            return position
        }

        func cost(_ order: [Int]) -> Int {
            let position = positions(order)
            return sets.indices.reduce(0) { $0 + setCost($1, position) }
        }

        func improve(_ order: inout [Int], budget: Int = 200_000) {
            var position = positions(order), budget = budget, improved = true
            while improved && budget > 0 {
                improved = false
                for i in 0..<entries where budget > 0 {
                    for j in (i + 1)..<entries where budget > 0
                        && GIFStream.minimumCodeSize(maxIndex: j) != GIFStream.minimumCodeSize(maxIndex: i) {
                        let a = order[i], b = order[j]
                        let touched = sets.indices.filter { sets[$0].members.contains(a) != sets[$0].members.contains(b) }
                        guard !touched.isEmpty else { continue }
                        let before = touched.reduce(0) { $0 + setCost($1, position) }
                        budget -= touched.reduce(0) { $0 + sets[$1].members.count }
                        position[a] = j
                        position[b] = i
                        let after = touched.reduce(0) { $0 + setCost($1, position) }
                        budget -= touched.reduce(0) { $0 + sets[$1].members.count }
                        if after < before {
                            order.swapAt(i, j)
                            improved = true
                        } else {
                            position[a] = i
                            position[b] = j
                        }
                    }
                }
            }
        }
    }

    @Test func flatSetsCostAndImproveAsThePlainForm() {
        var random = SeededGenerator(state: 19)
        for n in 0..<30 {
            let entries = [5, 17, 40, 64, 130, 256][n % 6]
            let sets = (0..<(1 + Int(random.next() % 40))).map { _ -> (members: [Int], weight: Int) in
                let size = 1 + Int(random.next() % UInt64(min(entries, 1 + Int(random.next() % 48))))
                let members = Array(Set((0..<size).map { _ in Int(random.next() % UInt64(entries)) })).sorted()
                return (members, 1 + Int(random.next() % 5000))
            }
            let needsKey = n % 2 == 0
            let fast = CostModel(sets: sets, entries: entries, needsKey: needsKey)
            // Built from the sets themselves (as the color usage builds it): the same lists.
            let fromSets = CostModel(sets: sets.map { s -> (key: ColorSet, value: Int) in
                var set = ColorSet()
                for m in s.members { set.insert(m) }
                return (set, s.weight)
            }, entries: entries, needsKey: needsKey)
            #expect(fromSets.members == fast.members && fromSets.memberStart == fast.memberStart && fromSets.weights == fast.weights, "case \(n)")
            #expect(fromSets.holders == fast.holders && fromSets.holderStart == fast.holderStart, "case \(n)")
            let plain = Plain(sets: sets, entries: entries, needsKey: needsKey)
            var order = Array(0..<entries).shuffled(using: &random)
            #expect(fast.cost(order) == plain.cost(order), "case \(n)")
            // A smaller budget stops both part way, at the same swap.
            for budget in [200_000, 20_000, 3_001, 997, 40] {
                var a = order, b = order
                fast.improve(&a, budget: budget)
                plain.improve(&b, budget: budget)
                #expect(a == b, "case \(n), budget \(budget)")
                #expect(fast.cost(a) == plain.cost(b))
            }
            order.reverse()
        }
    }
}
