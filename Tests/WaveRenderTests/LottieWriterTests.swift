import Foundation
import Testing
import WaveKit
import WaveRender

/// The Lottie writer's document, read back with the project's JSON parser: the timing players loop
/// by, the layers, the keyframes and the geometry. (scripts/check-lottie renders every bundled
/// preset's file with rlottie and compares the pixels with the raster frames.)
@Suite struct LottieWriterTests {
    func document(_ name: String, _ sets: [String] = []) throws -> (JSONNode, Animation) {
        let pipeline = RenderPipeline()
        let config = try pipeline.load(name, overrides: try sets.map { try #require(PresetOverride(parsing: $0)) })
        let animation = try pipeline.prepare(config, plan: try pipeline.plan(config))
        let bytes = try pipeline.write(animation, to: [OutputFormat.lottie.writer(for: config)])[0].bytes
        return (try JSONParser.parse(bytes), animation)
    }

    func number(_ node: JSONNode?) -> Double? {
        if case let .number(v)? = node?.value { return v }
        return nil
    }

    func items(_ node: JSONNode?) -> [JSONNode] {
        if case let .array(a)? = node?.value { return a }
        return []
    }

    func string(_ node: JSONNode?) -> String? {
        if case let .string(s)? = node?.value { return s }
        return nil
    }

    /// Every object in the document, depth first.
    func objects(_ node: JSONNode) -> [JSONNode] {
        switch node.value {
        case let .object(members): return [node] + members.flatMap { objects($0.value) }
        case let .array(a): return a.flatMap(objects)
        default: return []
        }
    }

    /// fr, ip, op, w and h: the planned frame rate, 0, the loop's frame count and the preset's size.
    @Test(arguments: ["boat", "classic", "dark", "drop", "heart", "orb", "progress-bar", "spinner"])
    func timingAndSizeFollowThePlan(_ name: String) throws {
        let (doc, animation) = try document(name)
        #expect(number(doc["fr"]) == animation.plan.fps)
        #expect(number(doc["ip"]) == 0)
        #expect(number(doc["op"]) == Double(animation.plan.frameCount))
        #expect(number(doc["w"]) == Double(animation.config.width))
        #expect(number(doc["h"]) == Double(animation.config.height))
        // Every layer lasts the whole loop, and every shape names its type first (lottie-android
        // and rlottie read a shape's members only after its "ty").
        for layer in items(doc["layers"]) + items(doc["assets"]).flatMap({ items($0["layers"]) }) {
            #expect(number(layer["ip"]) == 0 && number(layer["op"]) == Double(animation.plan.frameCount))
        }
        for shape in objects(doc) where string(shape["ty"]) != nil {
            if case let .object(members) = shape.value { #expect(members.first?.key == "ty") }
        }
    }

    /// classic: a background solid and one shape layer of three groups, each drifting by exactly one
    /// wavelength over the loop in two linear keyframes at frames 0 and N.
    @Test func classicDriftsOneWavelengthPerLoop() throws {
        let (doc, animation) = try document("classic")
        let layers = items(doc["layers"])
        #expect(layers.count == 2)
        #expect(number(layers[1]["ty"]) == 1)
        #expect(string(layers[1]["sc"]) == "#e3f2fd")
        let waves = items(items(layers[0]["shapes"]).first?["it"]).filter { string($0["ty"]) == "gr" }
        #expect(waves.count == 3)
        let wavelength = animation.config.layers[0].wavelength
        for group in waves {
            let transform = try #require(items(group["it"]).last)
            #expect(string(transform["ty"]) == "tr")
            let keyframes = items(transform["p"]?["k"])
            #expect(keyframes.map { number($0["t"]) } == [0, 100])
            #expect(items(keyframes[1]["s"]).map { number($0) } == [wavelength, 0])
            #expect(number(keyframes[0]["o"]?["x"]) == 0 && number(keyframes[0]["i"]?["x"]) == 1)
        }
    }

    /// The surface path is wider than the shape by the distance it drifts, and its vertices lie on
    /// the layer's sine at frame 0 (within the rounding of 2 decimals).
    @Test func surfaceVerticesLieOnTheSine() throws {
        let (doc, animation) = try document("classic")
        let model = WaveModel(config: animation.config, plan: animation.plan)
        let surfaces = model.surfaces(frame: 0, of: animation.plan.frameCount)
        let groups = items(items(items(doc["layers"])[0]["shapes"]).first?["it"]).filter { string($0["ty"]) == "gr" }
        // Front layer first.
        for (g, layer) in zip(groups, (0..<3).reversed()) {
            let path = try #require(items(g["it"]).first?["ks"]?["k"])
            let vertices = items(path["v"]).map { items($0).compactMap { number($0) } }
            let surface = vertices.dropLast(2)
            #expect(surface.first![0] <= -animation.config.layers[layer].wavelength)
            #expect(surface.last![0] >= Double(animation.config.width))
            for v in surface {
                #expect(abs(v[1] - surfaces.surface(layer: layer, atX: v[0])) <= 0.006, "layer \(layer) at x \(v[0])")
            }
        }
    }

    /// The level: a ramp with easeInOut gets Bézier handles, pingpong three keyframes, the tide four
    /// (its zero crossings and turns) with quarter- and half-sine handles; a still level none.
    @Test func levelKeyframesFollowTheLevel() throws {
        func levelTimes(_ name: String, _ sets: [String] = []) throws -> [[(t: Double?, x: Double?)]] {
            let (doc, _) = try document(name, sets)
            let layers = items(doc["layers"]) + items(doc["assets"]).flatMap { items($0["layers"]) }
            return layers.flatMap { items($0["shapes"]) }.compactMap { shape -> [(t: Double?, x: Double?)]? in
                guard let transform = items(shape["it"]).last, transform["p"]?["a"] != nil else { return nil }
                return items(transform["p"]?["k"]).map { (number($0["t"]), number($0["o"]?["x"])) }
            }
        }
        let bar = try levelTimes("progress-bar")
        #expect(!bar.isEmpty)
        for keyframes in bar {
            #expect(keyframes.map(\.t) == [0, 50, 100])
            #expect(keyframes[0].x == 0.364)
        }
        let tide = try levelTimes("spinner")
        #expect(!tide.isEmpty)
        for keyframes in tide {
            #expect(keyframes.map(\.t) == [0, 12.5, 37.5, 50])
            #expect(keyframes.map(\.x) == [0.328, 0.364, 0.361, nil])
        }
        #expect(try levelTimes("classic").isEmpty)
        let ramp = try levelTimes("classic", ["level={\"from\":0.2,\"to\":0.8}"])
        #expect(ramp.count == 1 && ramp[0].map(\.t) == [0, 99, 100] && ramp[0][0].x == 0)
    }

    /// orb: the water composed in a precomposition clipped by a track matte of the shape; the label's
    /// glyphs once, as the matte of a layer coloured by the front surface; the border a stroke; no
    /// masks, effects or expressions.
    @Test func orbMattesTheWaterAndTheLabel() throws {
        let (doc, _) = try document("orb")
        let layers = items(doc["layers"])
        #expect(layers.map { number($0["ty"]) } == [4, 4, 0])
        #expect(string(objects(layers[0]).first { string($0["ty"]) == "st" }?["ty"]) == "st")
        #expect(number(layers[1]["td"]) == 1 && number(layers[2]["tt"]) == 1)
        #expect(string(layers[2]["refId"]) == "water")
        let water = try #require(items(doc["assets"]).first { string($0["id"]) == "water" })
        let inner = items(water["layers"])
        #expect(inner.count == 3)
        #expect(number(inner[0]["td"]) == 1 && number(inner[1]["tt"]) == 1)
        #expect(!objects(doc).contains { $0["masksProperties"] != nil || $0["ef"] != nil || $0["a"] != nil && $0["x"] != nil })
    }

    /// heart: the ring a round-joined stroke twice the border's width under an alpha matte of the
    /// heart's fill; the water under a luminance matte, the fill in white beneath a black
    /// round-joined stroke twice the border and gap wide. With evenodd, the fills say so.
    @Test func heartMattesTheRingAndTheWaterByTheOutline() throws {
        let (doc, animation) = try document("heart")
        let layers = items(doc["layers"])
        #expect(layers.map { number($0["ty"]) } == [4, 4, 4, 0])
        #expect(number(layers[0]["td"]) == 1 && number(layers[1]["tt"]) == 1)
        #expect(number(layers[2]["td"]) == 1 && number(layers[3]["tt"]) == 3)
        let border = try #require(animation.config.border)
        let ringStroke = try #require(objects(layers[1]).first { string($0["ty"]) == "st" })
        #expect(abs(number(ringStroke["w"]?["k"])! - 2 * border.width) < 1e-3)
        #expect(number(ringStroke["lj"]) == 2)
        let matteShapes = objects(layers[2]).compactMap { string($0["ty"]) }
        let stroke = try #require(objects(layers[2]).first { string($0["ty"]) == "st" })
        #expect(abs(number(stroke["w"]?["k"])! - 2 * (border.width + border.gap)) < 1e-3)
        #expect(matteShapes.firstIndex(of: "st")! < matteShapes.firstIndex(of: "fl")!)
        #expect(!objects(doc).contains { $0["r"] != nil && string($0["ty"]) == "fl" })
        let (evenOdd, _) = try document("heart", [#"shape={"path": "M0 0h10v10h-10z M3 3h4v4h-4z", "fillRule": "evenodd"}"#])
        #expect(objects(evenOdd).contains { string($0["ty"]) == "fl" && number($0["r"]) == 2 })
    }

    /// boat: the rider an embedded PNG, placed and turned by keyframes at every planned frame.
    @Test func boatRiderHasKeyframesAtEveryFrame() throws {
        let (doc, animation) = try document("boat")
        let n = animation.plan.frameCount
        let asset = try #require(items(doc["assets"]).first { string($0["id"]) == "rider" })
        #expect(string(asset["p"])?.hasPrefix("data:image/png;base64,") == true)
        #expect(number(asset["e"]) == 1)
        let png = try #require(Data(base64Encoded: String(string(asset["p"])!.dropFirst("data:image/png;base64,".count))))
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let rider = try #require(items(doc["layers"]).first { number($0["ty"]) == 2 })
        for key in ["p", "r"] {
            #expect(items(rider["ks"]?[key]?["k"]).map { number($0["t"]) } == (0...n).map { Double($0) })
        }
        let first = items(items(rider["ks"]?["p"]?["k"]).first?["s"]).compactMap { number($0) }
        let pose = try #require(animation.config.rider).pose(on: WaveModel(config: animation.config, plan: animation.plan)
            .surfaces(atLoopFraction: 0, frames: n), box: animation.config.box)
        #expect(abs(first[0] - pose.x) <= 0.005 && abs(first[1] - pose.y) <= 0.005)
    }

    /// Colours are written so that rounding and truncating players agree on the 8-bit value.
    @Test func coloursSurviveRoundingAndTruncation() throws {
        let (doc, animation) = try document("dark")
        let fills = objects(doc).filter { string($0["ty"]) == "fl" }.map { items($0["c"]?["k"]).compactMap { number($0) } }
        let expected = animation.config.layers.map { [$0.color.r, $0.color.g, $0.color.b] }
        func readsAs(_ written: [Double], _ rgb: [UInt8]) -> Bool {
            guard written.count == 3 else { return false }
            for (v, c) in zip(written, rgb) {
                let scaled: Double = v * 255
                if Int(scaled) != Int(c) || Int(scaled.rounded()) != Int(c) { return false }
            }
            return true
        }
        for rgb in expected {
            #expect(fills.contains { readsAs($0, rgb) }, "\(rgb)")
        }
    }

    /// The same preset gives the same bytes.
    @Test func outputIsDeterministic() throws {
        let a = try RenderPipeline(threads: 1).render("orb", format: .lottie)
        let b = try RenderPipeline(threads: 3).render("orb", format: .lottie)
        #expect(a == b)
        // Compact: the file is its own compact form, one line.
        #expect(try JSONParser.parse(a).compactText + "\n" == String(decoding: a, as: UTF8.self))
    }

    /// The glyph contours the label's matte shows at frame k: groups without an opacity property,
    /// or whose last hold keyframe at or before k is 100.
    func labelContours(_ doc: JSONNode, frame k: Int) throws -> Set<String> {
        let water = try #require(items(doc["assets"]).first { string($0["id"]) == "water" })
        let matte = try #require(items(water["layers"]).first { number($0["td"]) == 1 })
        var shown = Set<String>()
        for group in items(matte["shapes"]) {
            let members = items(group["it"])
            if let opacity = members.last?["o"] {
                let keys = items(opacity["k"]).filter { (number($0["t"]) ?? 0) <= Double(k) }
                guard let value = number(items(keys.last?["s"]).first), value == 100 else { continue }
                #expect(keys.allSatisfy { number($0["h"]) == 1 })
            }
            for path in members where string(path["ty"]) == "sh" { shown.insert(path.compactText) }
        }
        return shown
    }

    /// A label whose text follows a 0 → 1 ramp: at the first, a middle and the last frame the matte
    /// shows exactly the glyph contours of that frame's text (those of the same preset with the
    /// text written out), each contour written once in the file.
    @Test func aRampLabelShowsEachFramesText() throws {
        let ramp = "level={\"from\": 0, \"to\": 1}"
        let (doc, animation) = try document("orb", [ramp])
        let n = animation.plan.frameCount
        let texts = try #require(animation.label)
        for k in [0, n / 2, n - 1] {
            let text = texts.text(frame: k, of: n)
            let (fixed, _) = try document("orb", [ramp, "label.text=\"\(text)\""])
            let expected = try labelContours(fixed, frame: k)
            #expect(!expected.isEmpty)
            #expect(try labelContours(doc, frame: k) == expected, "frame \(k): \(text)")
        }
        let water = try #require(items(doc["assets"]).first { string($0["id"]) == "water" })
        let matte = try #require(items(water["layers"]).first { number($0["td"]) == 1 })
        let paths = items(matte["shapes"]).flatMap { items($0["it"]) }.filter { string($0["ty"]) == "sh" }.map(\.compactText)
        #expect(Set(paths).count == paths.count, "a contour is written twice")
    }
}
