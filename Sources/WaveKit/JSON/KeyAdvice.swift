/// What the readers of JSON documents (presets, build manifests) and of the command line tell a
/// person about keys: which keys are annotations, which are unknown, and what was probably meant.
public enum KeyAdvice {
    /// Keys starting with `$` or `_` (`$schema`, `_comment`) annotate a document and are allowed in
    /// any object.
    public static func isAnnotation(_ key: String) -> Bool {
        key.hasPrefix("$") || key.hasPrefix("_")
    }

    /// The message for a key that is not in `allowed`: a guess from `suggest` when it has one, else
    /// the list of allowed keys.
    public static func unknownKey(_ key: String, allowed: [String], suggest: (String, [String]) -> String?) -> String {
        if let guess = suggest(key, allowed) { return "unknown key (did you mean \"\(guess)\"?)" }
        return "unknown key (expected one of: \(allowed.joined(separator: ", ")))"
    }

    /// The candidate closest to `word` by edit distance, when it is within `tolerance(candidate)`
    /// edits (the first of equally close ones).
    public static func closest(to word: String, among candidates: [String], ignoringCase: Bool = false,
                               tolerance: (String) -> Int) -> String? {
        let word = ignoringCase ? word.lowercased() : word
        var best: (String, Int)?
        for candidate in candidates {
            let d = distance(word, ignoringCase ? candidate.lowercased() : candidate)
            if d <= tolerance(candidate), best == nil || d < best!.1 { best = (candidate, d) }
        }
        return best?.0
    }

    /// Edit distance with transpositions (optimal string alignment): the fewest single-character
    /// insertions, deletions, substitutions and swaps of neighbours that turn `a` into `b`, so the
    /// common typo "wdith" is one edit from "width".
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var twoBack = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var row = previous
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { row[j] = min(row[j], twoBack[j - 2] + 1) }
            }
            (twoBack, previous) = (previous, row)
        }
        return previous[b.count]
    }
}

extension JSONNode {
    /// The value as an error message shows it: strings quoted as in JSON, numbers in their shortest
    /// form, booleans as such, anything else by its kind ("an array").
    public var brief: String {
        switch value {
        case let .string(s): return JSONNode.quote(s)
        case let .number(n): return NumberText.exact(n)
        case let .bool(b): return b ? "true" : "false"
        default: return value.kindName
        }
    }
}
