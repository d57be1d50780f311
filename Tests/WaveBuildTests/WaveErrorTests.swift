import Testing
import WaveKit
@testable import WaveBuild

/// The one error model: each kind maps to one exit code, and each problem prints itself, in the
/// compiler form when it names its file and as `Error: message` otherwise.
@Suite struct WaveErrorTests {
    static let inDocument = DocumentProblem(file: "presets/orb.json", line: 12, column: 20, keyPath: "layers[2].amplitude",
                                            message: "must be between 0 and 1, got 1.5")
    static let compilerForm = "presets/orb.json:12:20: error: at layers[2].amplitude: must be between 0 and 1, got 1.5"

    @Test(arguments: [
        (WaveError.Kind.missingInput, ExitCode.noInput), (.invalidInput, .dataError), (.cannotWrite, .cannotWrite),
        (.overBudget, .failure), (.failure, .failure), (.usage, .usage), (.conflictingArguments, .usage),
        (.unavailable, .unavailable),
    ])
    func eachKindPrintsItsProblemsAndHasItsExitCode(kind: WaveError.Kind, code: ExitCode) {
        let plain = WaveError(kind, ["out/orb.gif: cannot do it"])
        #expect(plain.exitCode == code)
        #expect(plain.printedLines == ["Error: out/orb.gif: cannot do it"])
        #expect(plain.lines == ["out/orb.gif: cannot do it"])
        let located = WaveError(kind, problems: [Self.inDocument])
        #expect(located.exitCode == code)
        #expect(located.printedLines == [Self.compilerForm])
        #expect(located.lines == [Self.compilerForm])
    }

    @Test func everyKindIsInTheTable() {
        #expect(WaveError.Kind.allCases.count == 8)
        #expect(Set(WaveError.Kind.allCases.map(\.exitCode)) == [.noInput, .dataError, .cannotWrite, .failure, .usage, .unavailable])
    }

    /// Problems in documents are a missing input when any of them is one, else an invalid input.
    @Test func documentProblemsDecideTheirKind() {
        let missing = DocumentProblem(file: "gone.json", message: "no such file", kind: .missingInput)
        #expect(WaveError([Self.inDocument, missing]).kind == .missingInput)
        #expect(WaveError([Self.inDocument, missing]).exitCode == .noInput)
        #expect(WaveError(Self.inDocument).kind == .invalidInput)
        #expect(WaveError(Self.inDocument).exitCode == .dataError)
    }

    /// A subject (the output a build stopped) goes before a plain problem's message only.
    @Test func aSubjectNamesOnlyPlainProblems() {
        let plain = DocumentProblem(message: "is missing")
        #expect(plain.printed(subject: "jobs[0] (orb): out/orb.gif") == "Error: jobs[0] (orb): out/orb.gif: is missing")
        #expect(Self.inDocument.printed(subject: "jobs[0] (orb): out/orb.gif") == Self.compilerForm)
    }

    /// Changing the messages keeps where each problem is.
    @Test func changingMessagesKeepsThePlace() {
        let error = WaveError(.overBudget, problems: [Self.inDocument, DocumentProblem(message: "too big")]).changingMessages { $0 + " (fit)" }
        #expect(error.kind == .overBudget)
        #expect(error.printedLines == [Self.compilerForm + " (fit)", "Error: too big (fit)"])
    }
}
