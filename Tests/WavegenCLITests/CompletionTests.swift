import Foundation
import Testing
import WaveTestSupport
import WaveKit
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview

/// `wavegen completions SHELL`: every subcommand and option of the specs, preset names, and a bash
/// script that really completes.
@Suite struct CompletionTests {
    @Test(arguments: CompletionsCommand.shells)
    func everyOptionAndSubcommand(_ shell: String) {
        let r = wavegen(["completions", shell])
        #expect(r.code == 0)
        #expect(r.err.isEmpty)
        for spec in Wavegen.commandSpecs {
            #expect(r.out.contains(spec.name), "\(shell): no \(spec.name)")
            for option in spec.options {
                for name in option.names {
                    // fish spells --output as `-l output` and -o as `-s o`.
                    let spelled = shell != "fish" ? name : name.hasPrefix("--") ? "-l \(name.dropFirst(2))" : "-s \(name.dropFirst())"
                    #expect(r.out.contains(spelled), "\(shell): \(spec.name) \(name) is missing")
                }
            }
        }
        #expect(r.out.contains("classic") && r.out.contains("progress-bar"), "\(shell): preset names are missing")
    }

    @Test func unknownShell() {
        let r = wavegen(["completions", "tcsh"])
        #expect(r.code == 64)
        #expect(r.errLines.first == "Error: unknown shell 'tcsh' (expected bash, zsh, fish)")
    }

    /// What the bash completion offers for a command line whose last word is being completed.
    func bashCompletes(_ words: [String]) throws -> [String] {
        let folder = try TemporaryFolder()
        let script = try folder.write(wavegen(["completions", "bash"]).out, to: "wavegen.bash")
        let r = try ChildProcess.run(["/bin/bash", "-c", #"source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _wavegen; printf '%s\n' "${COMPREPLY[@]}""#,
                                      "bash", script] + words, in: folder.path, timeout: 60)
        return r.out.split(separator: "\n").map(String.init).filter { $0 != "wavegen.bash" }
    }

    @Test func bashCompletesSubcommandsOptionsValuesAndPresets() throws {
        #expect(try bashCompletes(["wavegen", "ren"]) == ["render"])
        #expect(try bashCompletes(["wavegen", "--v"]) == ["--version"])
        #expect(try bashCompletes(["wavegen", "render", "--ou"]) == ["--output"])
        #expect(try bashCompletes(["wavegen", "render", "cl"]) == ["classic"])
        #expect(try bashCompletes(["wavegen", "render", "-o", "x.gif", "cl"]) == ["classic"], "an option's value is not an argument")
        #expect(try bashCompletes(["wavegen", "render", "classic", ""]) == [], "render takes one preset")
        #expect(try bashCompletes(["wavegen", "validate", "a.json", "b.json", "cl"]) == ["classic"], "validate takes many")
        #expect(try bashCompletes(["wavegen", "render", "--format", ""]) == OutputFormat.allCases.map(\.rawValue))
        #expect(try bashCompletes(["wavegen", "render", "--format", "=", "w"]) == ["webp"], "bash splits --format=w at '='")
        #expect(try bashCompletes(["wavegen", "presets", ""]) == ["show", "export", "pack"])
        #expect(try bashCompletes(["wavegen", "presets", "ex"]) == ["export"])
        #expect(try bashCompletes(["wavegen", "presets", "export", "b"]) == ["boat"])
        #expect(try bashCompletes(["wavegen", "presets", "show", "d"]) == ["dark", "drop"])
        #expect(try bashCompletes(["wavegen", "help", "pr"]) == ["presets", "preview"])
        #expect(try bashCompletes(["wavegen", "completions", "z"]) == ["zsh"])
    }
}
