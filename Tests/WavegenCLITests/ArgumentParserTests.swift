import Testing
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview
@testable import WaveKit

/// A spec shaped like `render`'s: a value option with a short name, a repeatable option, flags.
let sampleSpec = CommandSpec(
    name: "sample",
    abstract: "A command for tests.",
    usage: "wavegen sample [<input>] --output <file>",
    options: [
        OptionSpec(names: ["--output", "-o"], value: "file", help: "Where to write."),
        OptionSpec(names: ["--threads", "-j"], value: "n", help: "Threads."),
        OptionSpec(names: ["--set"], value: "key=value", help: "Override.", repeatable: true),
        OptionSpec(names: ["--verbose", "-v"], value: nil, help: "Say more."),
        OptionSpec(names: ["--strict"], value: nil, help: "Be strict."),
    ])

/// The error `parse` throws, or nil when it succeeds.
func parseError(_ args: [String]) -> WaveError? {
    do {
        _ = try ArgumentParser.parse(args, spec: sampleSpec)
        return nil
    } catch {
        return error
    }
}

@Suite struct ArgumentParserTests {
    @Test func optionWithSeparateValue() throws {
        let p = try ArgumentParser.parse(["in.json", "--output", "out.gif"], spec: sampleSpec)
        #expect(p.positionals == ["in.json"])
        #expect(p.value("--output") == "out.gif")
        #expect(p.values == ["--output": ["out.gif"]])
        #expect(p.flags.isEmpty)
    }

    @Test func optionWithInlineValue() throws {
        let p = try ArgumentParser.parse(["--output=out.gif", "in.json"], spec: sampleSpec)
        #expect(p.value("--output") == "out.gif")
        #expect(p.positionals == ["in.json"])
        // Only the first "=" splits; an empty inline value is a value.
        let q = try ArgumentParser.parse(["--set=layers[0].color=#FF0000", "--output="], spec: sampleSpec)
        #expect(q.values["--set"] == ["layers[0].color=#FF0000"])
        #expect(q.value("--output") == "")
    }

    @Test func shortNamesStoreUnderTheLongName() throws {
        let p = try ArgumentParser.parse(["-o", "out.webp", "-j", "2", "-v"], spec: sampleSpec)
        #expect(p.value("--output") == "out.webp")
        #expect(p.value("--threads") == "2")
        #expect(p.has("--verbose"))
        #expect(!p.has("-v"))
        #expect(p.values["-o"] == nil)
    }

    @Test func flags() throws {
        let p = try ArgumentParser.parse(["--strict", "a", "--verbose"], spec: sampleSpec)
        #expect(p.flags == ["--strict", "--verbose"])
        #expect(p.positionals == ["a"])
        #expect(p.values.isEmpty)
        let h = try ArgumentParser.parse(["-h"], spec: sampleSpec)
        #expect(h.has("--help"))
    }

    @Test func repeatableOptionAccumulatesInOrder() throws {
        let p = try ArgumentParser.parse(["--set", "fps=30", "--set=level=0.4", "--set", "layers[1].speed=2"], spec: sampleSpec)
        #expect(p.values["--set"] == ["fps=30", "level=0.4", "layers[1].speed=2"])
        #expect(p.value("--set") == "layers[1].speed=2")
    }

    @Test func valueMayLookLikeAnOption() throws {
        // A value is taken as is, even when it starts with a dash.
        let p = try ArgumentParser.parse(["--output", "-v"], spec: sampleSpec)
        #expect(p.value("--output") == "-v")
        #expect(!p.has("--verbose"))
    }

    @Test func doubleDashEndsOptions() throws {
        let p = try ArgumentParser.parse(["-v", "--", "-o", "--weird", "--", "x"], spec: sampleSpec)
        #expect(p.has("--verbose"))
        #expect(p.positionals == ["-o", "--weird", "--", "x"])
        #expect(p.values.isEmpty)
        let dash = try ArgumentParser.parse(["-", "-o", "-"], spec: sampleSpec)
        #expect(dash.positionals == ["-"])
        #expect(dash.value("--output") == "-")
    }

    @Test func unknownOptionSuggestsTheClosest() throws {
        let e = try #require(parseError(["in.json", "--outptu", "x.gif"]))
        #expect(e.kind == .usage)
        #expect(e.exitCode == .usage)
        #expect(e.lines == ["unknown option '--outptu' (did you mean '--output'?)"])
        let inline = try #require(parseError(["--verbos=1"]))
        #expect(inline.lines == ["unknown option '--verbos' (did you mean '--verbose'?)"])
        // Nothing close: no suggestion.
        let far = try #require(parseError(["--zzzzzzzzzz"]))
        #expect(far.kind == .usage)
        #expect(far.lines == ["unknown option '--zzzzzzzzzz'"])
        // Short options are matched exactly.
        #expect(parseError(["-x"])?.kind == .usage)
    }

    @Test func missingValueIsAUsageError() throws {
        let e = try #require(parseError(["--output"]))
        #expect(e.kind == .usage)
        #expect(e.lines == ["option '--output' needs a value (file)"])
        #expect(parseError(["-o"])?.lines == ["option '-o' needs a value (file)"])
    }

    @Test func flagWithValueIsAUsageError() throws {
        let e = try #require(parseError(["--verbose=yes"]))
        #expect(e.kind == .usage)
        #expect(e.lines == ["option '--verbose' takes no value"])
    }

    @Test func nonRepeatableOptionTwiceIsAUsageError() throws {
        let e = try #require(parseError(["-o", "a.gif", "--output", "b.gif"]))
        #expect(e.kind == .usage)
        #expect(e.lines == ["option '--output' given more than once"])
        // A flag given twice is harmless.
        #expect(parseError(["-v", "--verbose"]) == nil)
    }

    @Test func suggestions() {
        #expect(Suggest.closest(to: "rendr", among: ["render", "plan", "validate"]) == "render")
        #expect(Suggest.closest(to: "vaildate", among: ["render", "plan", "validate"]) == "validate")
        #expect(Suggest.closest(to: "xyzzy", among: ["render", "plan", "validate"]) == nil)
    }

    @Test func helpListsEveryOption() {
        let text = HelpFormatter.help(for: sampleSpec)
        #expect(text.hasPrefix("OVERVIEW: A command for tests.\n"))
        #expect(text.contains("USAGE: wavegen sample [<input>] --output <file>\n"))
        for fragment in ["-o, --output <file>", "-j, --threads <n>", "--set <key=value>", "-v, --verbose", "--strict", "-h, --help"] {
            #expect(text.contains(fragment), "\(fragment)")
        }
    }
}
