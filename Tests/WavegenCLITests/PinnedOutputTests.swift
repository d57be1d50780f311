import Foundation
import Testing
import WaveTestSupport
import WaveKit
import WaveRender
import WavegenCLI
import WaveBuild
import WavePreview

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
        // dotLottie: the archive (libzip, fixed stamps) with themes, and with the rider image.
        (["boat"], "boat.lottie", "23f1dab97cfd4f9a0b54d42f9c52e1c63074f4caa5d514acd15b1e8607640e4c"),
        (["classic"], "classic.lottie", "e4cb4c9720c6a0604d44bba96a71aa5b530d776776172733a2908405cf0e9bb6"),
        (["orb"], "orb.lottie", "82b8bf9084834955b777ffef46478ae5d91b351ed9bd317eade983d534c67995"),
        (["boat"], "boat.svg", "e49af31712a62d5aef57ab7da8d217f1d401f35c82a94eb9d782f3db60206c7d"),
        (["classic"], "classic.svg", "3cc5ebbc52f1b85c03d3060d25fbe970ebe833856e1ab01e772a1b69fb3e2e2b"),
        (["dark"], "dark.svg", "621818950ee8635f78aa8a323de2819e015eb2ad0af8baa30cc760b095ae1a61"),
        (["orb"], "orb.svg", "92fb4ce6bc3050d080789df03756617865217182ef9dfc6e55e4b68c6723888a"),
        (["progress-bar"], "progress-bar.svg", "6e752e823fd0046dd82e94c5fc045863b0a0cbaca56dea9d7fe08e7c93e7c3d0"),
        (["spinner"], "spinner.svg", "9911f2e7df0c65a56e9897af54e7f8b15c469526bfc9e10caf97047918188ad9"),
        (["orb", "--live"], "orb-live.svg", "4b57a2fa7de6d9c5c37ffd4d55b1021499e32e3381ab402ee2397b7c7cc96a7a"),
        (["heart"], "heart.svg", "0293427a20939306d22269efd1f1407babee6094af2c481ded2f84e2084696a3"),
        (["drop"], "drop.svg", "e652f0ddcaaf29fd99db7d0b81f27e845a5212e77544238f36b757668818836a"),
        (["boat"], "boat.png", "0939be1cdaf8a7ce31a759814ccd7ee57d3622ab75fbb19c000dd7ec6d0a9d37"),
        (["classic"], "classic.png", "07e8dde86f74a791a808120c382907b263ef069304e10cfe35a89b2e4ab19e8f"),
        (["dark"], "dark.png", "cc3602167c7f3e1c7867ef682e5ad077816ad63823d6f7600beaeb6bb944f38c"),
        (["orb"], "orb.png", "1f0ffca46e3a19190d8b0af50437499db73b2babf3b083dec12f9168f96cb5bb"),
        (["progress-bar"], "progress-bar.png", "b790ff96824560b25869288f3d7a2f35d05a035f988e345c41c7d3e17c34c779"),
        (["spinner"], "spinner.png", "bd286227b301034cec56662c24d8f4efeb5301253120ee868a6e766ea316eb7f"),
        (["boat"], "boat.json", "4d0d511c037c9e3c4ec2672e74fc7332b80ca7bd7619eebbcc36bc2803255010"),
        (["classic"], "classic.json", "7888a67b0903604d36f49091bf87074e1cb942ccf3acab97156687fd1b7be0df"),
        (["dark"], "dark.json", "53e4739cbdd1b2ceab6d7a89d33c5d8ec4fd16cf85d7b7dac8af9bb10e326d4d"),
        (["orb"], "orb.json", "e58e4bc94dd77dac243fae068983408e17e301d2de2310eed732e32731b7aa5f"),
        (["progress-bar"], "progress-bar.json", "fa6bcb06a0e8355fd890128f681dd9ef940005c68d53b40e82a0903a65b27373"),
        (["spinner"], "spinner.json", "4a502a6ad91299354a4166f537001e72ce69b123a0d1ee59dc23bece8fe644e3"),
        (["heart"], "heart.png", "9367fd540c92b64f72f5730ce33b3eb78399b30e967793c932dcae716fde549b"),
        (["drop"], "drop.png", "ee00740374504348346d3a7f50c07a7f175574a665c0a422965adfb7c5ac592d"),
        (["heart"], "heart.json", "bec7ec090e29ba8c61224b4308abec3e552faa1f55cd39d605757e4d7a3dc6ae"),
        (["drop"], "drop.json", "1a35545cbd2ac681c441875bcdb444ba55142a7c00bff798739d8af80cc27b60"),
        // Gradients: true-color WebP and APNG, a GIF table chosen from the loop's colors (plain and
        // dithered), SVG linearGradients and Lottie gradient fills.
        (["gradient-drop"], "gradient-drop.gif", "951cd7b58d1dd6cab19c0199a189777cf5e7a77064857384ff5be07f8287d8e2"),
        (["gradient-drop", "--set", "gif.dither=true"], "gradient-drop-dither.gif",
         "7a23af610ac8901bae86b5bba0340e6909987eee3e126c26754026aaa579ccaf"),
        (["gradient-drop"], "gradient-drop.webp", "0d7caedc51bf9ab27ff6a200300b008aa54ff456b2c7365e7e31a21d2a62efbb"),
        (["gradient-drop"], "gradient-drop.png", "6cc3e125f19b1a3f57352cd74a01eea9b4bfa55094a9d10498eac85e26559615"),
        (["gradient-drop"], "gradient-drop.svg", "5cf220691c947890ccc1454d0a2f2542d3ecfdb2c460f9579f1312e9d95e92f6"),
        (["gradient-drop"], "gradient-drop.json", "03cde34d808d51a0fef9b6fce1ff0cdeb84f383fb51501b2d304d52dd93ebca9"),
    ]

    /// The output version the digests below were pinned at. A change that alters them must bump
    /// `OutputDigest.outputVersion` (so build locks made before re-render) and this number together.
    static let pinnedAtOutputVersion = 8

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
