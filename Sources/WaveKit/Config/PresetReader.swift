import WavePlatform

/// Reads typed values out of a preset's JSON tree, collecting every problem with its key path
/// instead of stopping at the first. The file and position of each problem are filled in by
/// `PresetLoader`, which knows which file of the `extends` chain a value came from.
struct PresetReader {
    private(set) var problems: [DocumentProblem] = []

    mutating func fail(_ path: String, _ message: String, missingInput: Bool = false) {
        problems.append(DocumentProblem(keyPath: path, message: message, kind: missingInput ? .missingInput : .invalid))
    }

    /// Reports members that are not in `allowed` (keys starting with `$` or `_` are always allowed).
    mutating func checkKeys(_ node: JSONNode, at path: String, allowed: [String]) {
        guard case let .object(members) = node.value else { return }
        for member in members where !allowed.contains(member.key) && !KeyAdvice.isAnnotation(member.key) {
            fail(join(path, member.key), KeyAdvice.unknownKey(member.key, allowed: allowed, suggest: PresetReader.suggestion))
        }
    }

    /// A path with `key` appended: `layers[0]` + `color` → `layers[0].color`.
    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    mutating func object(_ node: JSONNode, at path: String) -> Bool {
        if case .object = node.value { return true }
        fail(path, "expected an object, got \(describe(node))")
        return false
    }

    mutating func number(_ node: JSONNode?, at path: String, default value: Double,
                         in range: ClosedRange<Double>, exclusiveLower: Bool = false) -> Double {
        guard let node else { return value }
        guard case let .number(n) = node.value else {
            fail(path, "expected a number, got \(describe(node))")
            return value
        }
        if n < range.lowerBound || n > range.upperBound || (exclusiveLower && n == range.lowerBound) {
            let low = exclusiveLower ? "greater than \(format(range.lowerBound))" : "at least \(format(range.lowerBound))"
            fail(path, "must be \(low) and at most \(format(range.upperBound)), got \(format(n))")
            return value
        }
        return n
    }

    mutating func integer(_ node: JSONNode?, at path: String, default value: Int, in range: ClosedRange<Int>) -> Int {
        guard let node else { return value }
        guard case let .number(n) = node.value, n == n.rounded() else {
            fail(path, "expected a whole number, got \(describe(node))")
            return value
        }
        guard n >= Double(range.lowerBound), n <= Double(range.upperBound) else {
            fail(path, "must be between \(range.lowerBound) and \(range.upperBound), got \(format(n))")
            return value
        }
        return Int(n)
    }

    mutating func bool(_ node: JSONNode?, at path: String, default value: Bool) -> Bool {
        guard let node else { return value }
        guard case let .bool(b) = node.value else {
            fail(path, "expected true or false, got \(describe(node))")
            return value
        }
        return b
    }

    mutating func string(_ node: JSONNode?, at path: String, default value: String) -> String {
        guard let node else { return value }
        guard case let .string(s) = node.value else {
            fail(path, "expected a string, got \(describe(node))")
            return value
        }
        return s
    }

    mutating func keyword<T: RawRepresentable & CaseIterable>(_ node: JSONNode?, at path: String, default value: T) -> T
    where T.RawValue == String {
        guard let node else { return value }
        let options = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        guard case let .string(s) = node.value, let v = T(rawValue: s) else {
            var guess: String?
            if case let .string(s) = node.value {
                // "ease-in-out" or "EaseInOut" for "easeInOut": the same letters, another spelling.
                let squeezed = s.lowercased().filter { $0.isLetter || $0.isNumber }
                let names = T.allCases.map(\.rawValue)
                guess = names.first { $0.lowercased() == squeezed } ?? KeyAdvice.closest(to: s, among: names, ignoringCase: true) { max(1, $0.count / 3) }
            }
            fail(path, "\(describe(node)) is not one of \(options)\(guess.map { " (did you mean \"\($0)\"?)" } ?? "")")
            return value
        }
        return v
    }

    /// A color, in any form CSS writes in sRGB (see `CSSColor`).
    mutating func color(_ node: JSONNode?, at path: String, default value: RGBA?) -> RGBA? {
        guard let node else {
            if value == nil { fail(path, "is required") }
            return value
        }
        guard case let .string(s) = node.value, let c = RGBA(parsing: s) else {
            var advice: String?
            if case let .string(s) = node.value { advice = RGBA.advice(for: s) }
            fail(path, "expected a color (\(PresetReader.colorForms)), got \(describe(node))\(advice.map { " (\($0))" } ?? "")")
            return value
        }
        return c
    }

    /// A paint: a color (see `color`) or a `linear-gradient(…)` (see `CSSGradient`).
    mutating func paint(_ node: JSONNode?, at path: String, default value: Paint?) -> Paint? {
        guard let node else {
            if value == nil { fail(path, "is required") }
            return value
        }
        if case let .string(s) = node.value, CSSGradient.looksLikeGradient(s) {
            switch CSSGradient.parse(s) {
            case let .success(g): return .linear(g)
            case let .failure(problem):
                fail(path, "expected a color or a linear-gradient(), got \(describe(node)): \(problem.message)")
                return value
            }
        }
        // Anything else is read, and refused, as a color is.
        return color(node, at: path, default: value?.representativeColor).map(Paint.flat)
    }

    /// The color forms a message about a color names.
    static let colorForms = "#RRGGBB, #RGB, rgb(), hsl() or a CSS name such as \"steelblue\""

    /// A length: a number is a fraction of `reference` (pixels), a string "Npx" is N pixels at
    /// scale 1. Returns output pixels.
    mutating func length(_ node: JSONNode?, at path: String, default value: Double, reference: Double,
                         scale: Double, in range: ClosedRange<Double>, rangeText: String) -> Double {
        guard let node else { return value * reference }
        switch node.value {
        case let .number(n):
            guard range.contains(n) else {
                fail(path, "must be \(rangeText), got \(format(n))")
                return value * reference
            }
            return n * reference
        case let .string(s) where s.hasSuffix("px"):
            guard let px = Double(s.dropLast(2).trimming(\.isSpaceOrTab)), px.isFinite else {
                fail(path, "\"\(s)\" is not a length (expected a number or a string like \"18px\")")
                return value * reference
            }
            let fraction = reference > 0 ? px * scale / reference : 0
            guard range.contains(fraction) || (px >= 0 && range.lowerBound <= 0 && fraction <= range.upperBound) else {
                fail(path, "must be \(rangeText), got \(s) (\(format(fraction)) of \(format(reference / scale))px)")
                return value * reference
            }
            return px * scale
        default:
            fail(path, "\(describe(node)) is not a length (expected a number or a string like \"18px\")")
            return value * reference
        }
    }

    func describe(_ node: JSONNode) -> String { node.brief }

    func format(_ n: Double) -> String { NumberText.exact(n) }

    /// The allowed key closest to `key` (ignoring case), when close enough to be a likely typo.
    static func suggestion(for key: String, among allowed: [String]) -> String? {
        KeyAdvice.closest(to: key, among: allowed, ignoringCase: true) { max(1, min(3, $0.count / 3)) }
    }
}
