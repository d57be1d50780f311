import Foundation
import Testing
import WaveKit
import WaveRender
import WavegenCLI

/// The exact bytes `wavegen render` writes for every bundled preset and a few overridden ones, on
/// this machine's libraries. A change to the pipeline that is meant to keep the output (moving
/// code, sharing a model) must keep these; a change meant to alter output updates them in the same
/// commit, with the reason.
@Suite struct PinnedOutputTests {
    static let cases: [(args: [String], file: String, sha256: String)] = [
        (["boat"], "boat.gif", "fa277d908f694496dc3e73675d207b6087a9e4352a275c54609b2da443cb49c2"),
        (["boat"], "boat.webp", "df65a8e0cbd55256c9d50a7e703088ef4f7a0d97b9143c20cf0cc3bc772fdc94"),
        (["classic"], "classic.gif", "04411a8b419bd892fb55bf7af68832806e07f834e2f9d7790b6c9320065a9ee0"),
        (["classic"], "classic.webp", "a260e420686909b22c55d4ce7496bc5ab94f2061847f5c5c534048afb7b8670e"),
        (["dark"], "dark.gif", "c10bf9be2142cc33b7d031630ce74b7d602851f1b9a4e8eb68ee412134773eca"),
        (["dark"], "dark.webp", "f0859373713475e32fcbf327e0a191a98028f808c437f1986d6a372deb784dfb"),
        (["orb"], "orb.gif", "3d10022957bffc67174f4b9d3b81574ec9f74fca337cfe4206c7a33dfb3b6bba"),
        (["orb"], "orb.webp", "6adfa2072a220f929c9e9f52d25a1c0eacf3520c92964932a78aadfe3c31d068"),
        (["progress-bar"], "progress-bar.gif", "874f213a0eed1c31522ee1bb5dc806ba24648814da0b7cc2aff3904544a314ea"),
        (["progress-bar"], "progress-bar.webp", "e9c57963e3ab052ddc682ecb2d92f5b68f117314eb89c31b5f329f96a5518636"),
        (["spinner"], "spinner.gif", "9d26e11c5d6306bd9b6d95d46ec248c2e910a7fb7704bdeb0c32698aededdc2c"),
        (["spinner"], "spinner.webp", "30a5ef1efe2bb3283dafba3654742ec3b63974474a72c29d7ea837fc076bc144"),
        (["classic", "--set", "layers[1].color=#E53935", "--level", "0.3"], "classic-set.gif",
         "91cbb4fd6d226f0438d25f44a28c4d291c17533a318c428d369ce1d726f336a2"),
        (["classic", "--set", "layers[1].color=#E53935", "--level", "0.3"], "classic-set.webp",
         "e2ce0b4279144c2d0542b17516221aed657f9f08f5da872525374d7ce27e1380"),
        (["orb", "--set", "gif.edges=dither", "--scale", "2"], "orb-set.gif",
         "fb05b3f0bf7f009fa645bd2a9d2e2fada9f613c8674e81b16af77ba395938dfb"),
        (["orb", "--set", "gif.edges=dither", "--scale", "2"], "orb-set.webp",
         "da5002bcb96fbca9dd07dc233ea62898e76c2992478ebdbe288709ef6601b3a8"),
        (["boat"], "boat.svg", "d9e2d972dca8059e653e643188bd951d748f62f3daedc8d07a4e74ff93bb120e"),
        (["classic"], "classic.svg", "2796088704e8b460ace96ec6bbf2d8f1f94c9d06f17f0fe5fa5a79910f174a81"),
        (["dark"], "dark.svg", "d7d3e2dad7e57d30a98103208a9a64f2fe6ea4b33fb511e720f8254370b4e18f"),
        (["orb"], "orb.svg", "6d4d2c0c7a8e24a2f7ab2affe79f8ea1cdd54abe39f243be059ff428e06c7824"),
        (["progress-bar"], "progress-bar.svg", "5b25b57427a3d6cb33fe1620955eedd1ade180e12ce8987f8b8836b6c09ac2c3"),
        (["spinner"], "spinner.svg", "7aa0c8a3756322faa39e02af0daa82aa1bce1957773a9ef0183119b8adc4cc9d"),
        (["boat"], "boat.png", "0939be1cdaf8a7ce31a759814ccd7ee57d3622ab75fbb19c000dd7ec6d0a9d37"),
        (["classic"], "classic.png", "8797a1311df9755806a7dada881c7eb965eb9dae8ca9dd33386e3a5d0395cce9"),
        (["dark"], "dark.png", "29ff61457e55d1f8a5e3474c0ba897ac17b729938262de144b0d76fa0849ffbb"),
        (["orb"], "orb.png", "42f74d1e1df6e8170152062e05c43796e841f6c2644b5624f0c9a090d149ed73"),
        (["progress-bar"], "progress-bar.png", "b488e6546a24b30a81c3e0b9aa6be5a90835a75da62319e15d2bcc764ea53021"),
        (["spinner"], "spinner.png", "686ee0960a732555c183c350b101dad1a9de9bde002871375cf7cd9b83c32bf6"),
        (["boat"], "boat.json", "76806b711d50e787fb97a83065c786fadefb4a636e6d3720323f19906683720d"),
        (["classic"], "classic.json", "2c26fd7b5b35ca1526c3f655c18f96285c3d3277c33db81cfa12fa1a84592fe0"),
        (["dark"], "dark.json", "131732877b751050ffa48b1b2c42a843e13cc4ec4e5c25d472d15e6aee1aa04d"),
        (["orb"], "orb.json", "6c375caaa756c7195a3eefbe1191163d8c42158385de1f1ae9e27a54a7052a0e"),
        (["progress-bar"], "progress-bar.json", "9b948b711e5ca96ae127f3dcdd785922ac71c8de807f59205c8126d28addf4cb"),
        (["spinner"], "spinner.json", "dd2c1d9c79af7e84cced9b763a5727430691a7fdfde53d16fe83f4972cf27f1c"),
    ]

    /// The output version the digests below were pinned at. A change that alters them must bump
    /// `OutputDigest.outputVersion` (so build locks made before re-render) and this number together.
    static let pinnedAtOutputVersion = 3

    @Test func outputVersionMatchesThePins() {
        #expect(OutputDigest.outputVersion == PinnedOutputTests.pinnedAtOutputVersion,
                "bump pinnedAtOutputVersion with the pins when outputs change on purpose")
    }

    @Test(arguments: 0..<cases.count)
    func outputIsUnchanged(_ i: Int) throws {
        let (args, file, digest) = PinnedOutputTests.cases[i]
        let folder = try TemporaryFolder()
        let r = wavegen(["render"] + args + ["-o", folder.file(file), "-q"])
        #expect(r.code == 0, "\(r.err)")
        #expect(SHA256.hex(try folder.bytes(file)) == digest, "\(args.joined(separator: " ")) → \(file)")
    }
}
