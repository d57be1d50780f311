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
        (["dark"], "dark.gif", "30324a9f5e605307a01f2e8be79f72d3a5430466ddd1cda18b4720cd1ef9c0c2"),
        (["dark"], "dark.webp", "7165b8a3ab27e32b00407cfd89f5842cc1c1496e7d53d5fc26c37bbd8bc27786"),
        (["orb"], "orb.gif", "68c3ed6eb206c448956063673553fc95c643cd95f1ec62066a7392a45a9b6d4e"),
        (["orb"], "orb.webp", "cc24b405ca6caf07b6e2343336a228fdb53fe0bf8788d621e8b1aa8ab103122b"),
        (["progress-bar"], "progress-bar.gif", "21137cd607820638241308a54a62c667fa2b660c42e3b79a3d912e20fcc30162"),
        (["progress-bar"], "progress-bar.webp", "cec68fb00d87d0c6412142b77981fc83e6b0b15455432c533fed18a4b5d1a0cb"),
        (["spinner"], "spinner.gif", "8e9441e3c407fadbd167e93cc48239871d8c87f262b70f4f3192024237a66812"),
        (["heart"], "heart.gif", "26521152f8bcb37d71d1822a34834aedd222d45746227e10b73a32d9cd040f4c"),
        (["drop"], "drop.gif", "eee7dba61f82a0cfd6b10bef1295c4459204a0e5f37a928074afada20054e935"),
        (["spinner"], "spinner.webp", "7caab50b2e11eccb360aa69a5dd63153a2505fb126b01889398e6b0d01fdda28"),
        (["heart"], "heart.webp", "befc47d48503e755af78787acba7d5f5e70835002d34c195df98f8757f32419d"),
        (["drop"], "drop.webp", "b8f1422dfdce4cb1651eb60091dee3da38f0fee38a55684b6d3916e032687049"),
        (["classic", "--set", "layers[1].color=#E53935", "--level", "0.3"], "classic-set.gif",
         "91cbb4fd6d226f0438d25f44a28c4d291c17533a318c428d369ce1d726f336a2"),
        (["classic", "--set", "layers[1].color=#E53935", "--level", "0.3"], "classic-set.webp",
         "e2ce0b4279144c2d0542b17516221aed657f9f08f5da872525374d7ce27e1380"),
        (["orb", "--set", "gif.edges=dither", "--scale", "2"], "orb-set.gif",
         "1f82bd71f3aabf1ca4c3edb78671b8699bcc39e883bc7d54acdc004967017b6e"),
        (["orb", "--set", "gif.edges=dither", "--scale", "2"], "orb-set.webp",
         "ac94c0aa104b8d21a0e551bf2f903b95d48e5fcf94a0329b6ff47d12a834567c"),
        // Lossy LZW: an opaque scene, and a transparent one whose matte edges may show the matte.
        (["classic", "--set", "gif.lossy=16"], "classic-lossy.gif",
         "4d5a7fdc018798d3b6af3601a08b17b05e40735e493d0c83d0bf34e61134676e"),
        (["orb", "--set", "gif.lossy=16"], "orb-lossy.gif",
         "a7d9b379a2ab7c54ac0cacd67a79d4ed20c9f0706f8469394e0368a08e5ce55c"),
        (["boat"], "boat.svg", "d9e2d972dca8059e653e643188bd951d748f62f3daedc8d07a4e74ff93bb120e"),
        (["classic"], "classic.svg", "2796088704e8b460ace96ec6bbf2d8f1f94c9d06f17f0fe5fa5a79910f174a81"),
        (["dark"], "dark.svg", "d7d3e2dad7e57d30a98103208a9a64f2fe6ea4b33fb511e720f8254370b4e18f"),
        (["orb"], "orb.svg", "6d4d2c0c7a8e24a2f7ab2affe79f8ea1cdd54abe39f243be059ff428e06c7824"),
        (["progress-bar"], "progress-bar.svg", "5b25b57427a3d6cb33fe1620955eedd1ade180e12ce8987f8b8836b6c09ac2c3"),
        (["spinner"], "spinner.svg", "7aa0c8a3756322faa39e02af0daa82aa1bce1957773a9ef0183119b8adc4cc9d"),
        (["heart"], "heart.svg", "6d486f42f8bf3b01a32383c44d5ea2417f63b0f4bc918f38cbdbde7c8b0c9c51"),
        (["drop"], "drop.svg", "f1ee9315c7122d95c2451f0fd4a77b57fa047be4f5acaaadc7038ce9429c88c5"),
        (["boat"], "boat.png", "0939be1cdaf8a7ce31a759814ccd7ee57d3622ab75fbb19c000dd7ec6d0a9d37"),
        (["classic"], "classic.png", "07e8dde86f74a791a808120c382907b263ef069304e10cfe35a89b2e4ab19e8f"),
        (["dark"], "dark.png", "cc3602167c7f3e1c7867ef682e5ad077816ad63823d6f7600beaeb6bb944f38c"),
        (["orb"], "orb.png", "1f0ffca46e3a19190d8b0af50437499db73b2babf3b083dec12f9168f96cb5bb"),
        (["progress-bar"], "progress-bar.png", "b790ff96824560b25869288f3d7a2f35d05a035f988e345c41c7d3e17c34c779"),
        (["spinner"], "spinner.png", "feb241469ac9a7a8a7b1529ebd07521b96365b257f58776eaf577a16b5cf5e61"),
        (["heart"], "heart.png", "a206a34dc7286c72ebd653bf8e0c4707fa95edda74c071149582431636815c2d"),
        (["drop"], "drop.png", "2e341edb5a04396a9e6e987eb0eec626e327a9b6178d54558ee6817a448dbeef"),
        (["boat"], "boat.json", "76806b711d50e787fb97a83065c786fadefb4a636e6d3720323f19906683720d"),
        (["classic"], "classic.json", "2c26fd7b5b35ca1526c3f655c18f96285c3d3277c33db81cfa12fa1a84592fe0"),
        (["dark"], "dark.json", "131732877b751050ffa48b1b2c42a843e13cc4ec4e5c25d472d15e6aee1aa04d"),
        (["orb"], "orb.json", "6c375caaa756c7195a3eefbe1191163d8c42158385de1f1ae9e27a54a7052a0e"),
        (["progress-bar"], "progress-bar.json", "9b948b711e5ca96ae127f3dcdd785922ac71c8de807f59205c8126d28addf4cb"),
        (["spinner"], "spinner.json", "dd2c1d9c79af7e84cced9b763a5727430691a7fdfde53d16fe83f4972cf27f1c"),
        (["heart"], "heart.json", "92eff4bf537cd61a2edb541d01aa75f58086705d1001a832ecda12ccfee1c5aa"),
        (["drop"], "drop.json", "99dab8a5a44f17c12bbc7fce5f31fc8efa07cfa7cf1992445389bc6699057adf"),
    ]

    /// The output version the digests below were pinned at. A change that alters them must bump
    /// `OutputDigest.outputVersion` (so build locks made before re-render) and this number together.
    static let pinnedAtOutputVersion = 6

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
