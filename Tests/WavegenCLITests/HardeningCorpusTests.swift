import Foundation
import Testing

/// Bad presets, hostile files and broken outputs (Fixtures/hardening/cases.json): each must end
/// with its exit status and exact stderr lines, print nothing on stdout, and leave no output or
/// temporary file behind. The cases wavegen gets wrong today are listed below, one disabled test
/// each; their expectations in cases.json are the behavior they should have.
@Suite struct HardeningCorpusTests {
    @Test(arguments: HardeningCorpus.passing)
    func corpusCase(_ c: HardeningCase) throws {
        try HardeningCorpus.run(c)
    }

    @Test func manifestIsComplete() throws {
        let cases = try HardeningCorpus.load()
        #expect(cases.count >= 50)
        let names = cases.map(\.name)
        #expect(Set(names).count == names.count, "case names repeat")
        #expect(Set(cases.filter { $0.bug != nil }.map(\.name)) == Set(HardeningCorpusTests.knownBugs),
                "every case with a bug needs its disabled test below, and only those")
        for c in cases {
            #expect(c.stderrTo != nil || !c.stderr.isEmpty || c.exit == 0, "\(c.name): a failure must say why on stderr")
            for line in c.stderr {
                #expect(line.hasPrefix("Error: ") || line.hasPrefix("warning: ") || line.hasPrefix("Usage: ") || line.hasPrefix("  See "),
                        "\(c.name): \(line)")
            }
        }
    }

    /// The 100000 × 100000 PNG must fail on its size, not on a broken header: its IHDR checksum is right.
    @Test func crafted100000PixelHeaderIsAValidPNGHeader() throws {
        let bytes = Array(try Data(contentsOf: HardeningCorpus.folder.appendingPathComponent("images/huge-header.png")))
        #expect(Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(Array(bytes[8..<16]) == [0, 0, 0, 13] + Array("IHDR".utf8))
        let be = { (i: Int) in bytes[i..<i + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
        #expect(be(16) == 100_000 && be(20) == 100_000)
        #expect(be(29) == crc32(Array(bytes[12..<29])), "IHDR CRC")
    }

    func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    // MARK: Known bugs: enable a test when its bug is fixed (and drop "bug" from its case).

    static let knownBugs = [
        "syntax-single-quotes",
        "type-top-level-array",
        "type-top-level-string",
        "type-extends-number",
        "range-scale-tiny",
        "range-duration-frames",
        "range-fps-slow-gif",
        "range-fps-tiny",
        "range-label-huge",
        "extends-missing-file",
        "extends-missing-bundled",
        "extends-directory",
        "extends-dev-zero",
        "preset-symlink-to-valid",
        "rider-missing",
        "rider-directory",
        "rider-dev-zero",
        "rider-oversized",
        "font-text-file",
        "font-text-file-validate",
        "font-missing",
        "font-directory",
        "font-fifo",
        "output-parent-is-a-file",
        "output-proc-root",
        "output-stdout-full",
        "output-stderr-full",
        "cli-scale-nan",
        "cli-set-extends",
        "cli-set-index-out-of-range",
        "plan-no-loop",
        "limit-total-pixels-render",
        "rider-via-symlink",
        "cli-set-deep-key-path",
        "manifest-output-read-only",
    ]

    @Test(.disabled("bug: a single-quoted key is reported as \"unexpected '''\" (the quote character inside quotes); a single-quoted value already gets \"strings must use double quotes\""))
    func bugSyntaxSingleQuotes() throws { try HardeningCorpus.run(named: "syntax-single-quotes") }

    @Test(.disabled("bug: a preset whose top level is an array is accepted as {} and renders the default animation (PresetLoader.resolve merges the default name into it, which replaces the array)"))
    func bugTypeTopLevelArray() throws { try HardeningCorpus.run(named: "type-top-level-array") }

    @Test(.disabled("bug: a preset whose top level is a string is accepted as {} and renders the default animation"))
    func bugTypeTopLevelString() throws { try HardeningCorpus.run(named: "type-top-level-string") }

    @Test(.disabled("bug: a non-string extends is silently ignored: resolve() removes the key before the decoder's type check sees it"))
    func bugTypeExtendsNumber() throws { try HardeningCorpus.run(named: "type-extends-number") }

    @Test(.disabled("bug: a scale that shrinks the canvas to 1×1 is blamed on inset, a key the preset does not have"))
    func bugRangeScaleTiny() throws { try HardeningCorpus.run(named: "range-scale-tiny") }

    @Test(.disabled("bug: render and plan print planner errors under the preset's name (range-duration-frames) instead of its file; validate names the file"))
    func bugRangeDurationFrames() throws { try HardeningCorpus.run(named: "range-duration-frames") }

    @Test(.disabled("bug: fps 0.01 gives an 800 s loop of identical frames; the GIF encoder merges them into one 80000 cs delay, which wraps to 14464 cs (the field is 16 bits): a wrong file with exit 0"))
    func bugRangeFpsSlowGif() throws { try HardeningCorpus.run(named: "range-fps-slow-gif") }

    @Test(.disabled("bug: crash: fps 1e-300 is accepted (the range is > 0 … 240) and LoopPlanner.cycles traps converting a huge Double to Int"))
    func bugRangeFpsTiny() throws { try HardeningCorpus.run(named: "range-fps-tiny") }

    @Test(.disabled("bug: crash: a 64-character label at size 2 makes TextRasterizer allocate a 4.4 GB coverage buffer (no limit on the text mask); validate says ok"))
    func bugRangeLabelHuge() throws { try HardeningCorpus.run(named: "range-label-huge") }

    @Test(.disabled("bug: a missing extends target is reported as if it were named on the command line: the line names neither the preset that extends it nor the key path"))
    func bugExtendsMissingFile() throws { try HardeningCorpus.run(named: "extends-missing-file") }

    @Test(.disabled("bug: an unknown extends name does not name the preset that extends it nor the key path"))
    func bugExtendsMissingBundled() throws { try HardeningCorpus.run(named: "extends-missing-bundled") }

    @Test(.disabled("bug: an extends that names a folder does not name the preset that extends it nor the key path"))
    func bugExtendsDirectory() throws { try HardeningCorpus.run(named: "extends-directory") }

    @Test(.disabled("bug: an extends that names a device does not name the preset that extends it nor the key path"))
    func bugExtendsDevZero() throws { try HardeningCorpus.run(named: "extends-dev-zero") }

    @Test(.disabled("bug: a symbolic link to a valid preset is refused as \"is not a regular file\": BoundedFile checks FileManager.attributesOfItem, which does not follow links (the same for rider images and manifests)"))
    func bugPresetSymlinkToValid() throws { try HardeningCorpus.run(named: "preset-symlink-to-valid") }

    @Test(.disabled("bug: a missing rider image exits 65; the README gives 66 for a missing input, and a missing font or extends target exits 66"))
    func bugRiderMissing() throws { try HardeningCorpus.run(named: "rider-missing") }

    @Test(.disabled("bug: a rider image that is a folder exits 65; the README gives 66 for an input that is a directory"))
    func bugRiderDirectory() throws { try HardeningCorpus.run(named: "rider-directory") }

    @Test(.disabled("bug: a rider image that is a device exits 65; the README gives 66 for an unreadable input"))
    func bugRiderDevZero() throws { try HardeningCorpus.run(named: "rider-dev-zero") }

    @Test(.disabled("bug: a rider image over the size limit exits 65; the README gives 66 for an input that is too large"))
    func bugRiderOversized() throws { try HardeningCorpus.run(named: "rider-oversized") }

    @Test(.disabled("bug: font errors name the preset's name (font-text-file) instead of its file, and \"label.font:\" without \"at\""))
    func bugFontTextFile() throws { try HardeningCorpus.run(named: "font-text-file") }

    @Test(.disabled("bug: validate says ok for a preset whose label.font is not a font; only render opens the font"))
    func bugFontTextFileValidate() throws { try HardeningCorpus.run(named: "font-text-file-validate") }

    @Test(.disabled("bug: font errors name the preset's name instead of its file, and no \"at\" key path"))
    func bugFontMissing() throws { try HardeningCorpus.run(named: "font-missing") }

    @Test(.disabled("bug: a folder given as label.font is reported as \"unknown file format\" (FreeType's message) under the preset's name"))
    func bugFontDirectory() throws { try HardeningCorpus.run(named: "font-directory") }

    @Test(.disabled("bug: hang: a FIFO given as label.font blocks forever in FT_New_Face (fonts are not checked to be regular files)"))
    func bugFontFifo() throws { try HardeningCorpus.run(named: "font-fifo") }

    @Test(.disabled("bug: an output under a path that is a file says \"folder … does not exist\" although it exists"))
    func bugOutputParentIsAFile() throws { try HardeningCorpus.run(named: "output-parent-is-a-file") }

    @Test(.disabled("bug: checkWritable's access(W_OK) passes for root on /proc, so the whole render runs and the write then fails with \"No such file or directory\""))
    func bugOutputProcRoot() throws { try HardeningCorpus.run(named: "output-proc-root") }

    @Test(.disabled("bug: crash: Console.standard writes with FileHandle.write, which traps when stdout fails (here /dev/full, ENOSPC)"))
    func bugOutputStdoutFull() throws { try HardeningCorpus.run(named: "output-stdout-full") }

    @Test(.disabled("bug: crash: printing an error to a stderr that cannot be written (/dev/full) traps in FileHandle.write instead of exiting 66"))
    func bugOutputStderrFull() throws { try HardeningCorpus.run(named: "output-stderr-full") }

    @Test(.disabled("bug: --scale nan passes the shortcut's Double() check, becomes a string and is reported as \"--set: at scale\""))
    func bugCliScaleNan() throws { try HardeningCorpus.run(named: "cli-scale-nan") }

    @Test(.disabled("bug: --set extends=… is silently ignored (overrides are applied after extends is resolved)"))
    func bugCliSetExtends() throws { try HardeningCorpus.run(named: "cli-set-extends") }

    @Test(.disabled("bug: an override that cannot be applied is attributed to the preset file instead of --set"))
    func bugCliSetIndexOutOfRange() throws { try HardeningCorpus.run(named: "cli-set-index-out-of-range") }

    @Test(.disabled("bug: render and plan print planner errors under the preset's \"name\" (Wave), which need not resemble its file name; validate names the file"))
    func bugPlanNoLoop() throws { try HardeningCorpus.run(named: "plan-no-loop") }

    @Test(.disabled("bug: render prints the pixel-limit error under the preset's name (limit-total-pixels) instead of its file; validate names the file"))
    func bugLimitTotalPixelsRender() throws { try HardeningCorpus.run(named: "limit-total-pixels-render") }

    @Test(.disabled("bug: a rider image reached through a symbolic link is refused as \"is not a regular file\""))
    func bugRiderViaSymlink() throws { try HardeningCorpus.run(named: "rider-via-symlink") }

    @Test(.disabled("bug: crash: a --set key path of 10000 parts overflows the stack in the recursive JSONNode.set (the parser's 64-level limit does not apply to key paths)"))
    func bugCliSetDeepKeyPath() throws { try HardeningCorpus.run(named: "cli-set-deep-key-path") }

    @Test(.disabled("bug: build writes into a read-only folder without checking it first (render checks up front), says \"No such file or directory\" for a folder that exists, and exits 1 where render exits 73"))
    func bugManifestOutputReadOnly() throws { try HardeningCorpus.run(named: "manifest-output-read-only") }
}
