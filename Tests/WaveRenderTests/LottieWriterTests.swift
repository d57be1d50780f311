import Foundation
import Testing
import WaveKit
import WaveRender
import WaveTestSupport

/// The Lottie writer's document, read back with the project's JSON parser: the timing players loop
/// by, the layers, the keyframes and the geometry. (scripts/checks/check-lottie renders every bundled
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
    @Test(arguments: ["boat", "classic", "dark", "drop", "gradient-drop", "heart", "orb", "progress-bar", "progress-bar-horizontal", "spinner"])
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

    /// The drift group of each wave layer: the group inside its `level` group.
    func driftGroups(_ layers: [JSONNode]) -> [JSONNode] {
        layers.compactMap { items(items($0["shapes"]).first?["it"]).first { string($0["ty"]) == "gr" } }
    }

    /// classic: a shape layer per wave (front first) and a background rectangle, each wave drifting
    /// by exactly one wavelength over the loop in two linear keyframes at frames 0 and N.
    @Test func classicDriftsOneWavelengthPerLoop() throws {
        let (doc, animation) = try document("classic")
        let layers = items(doc["layers"])
        #expect(layers.map { string($0["nm"]) } == ["wave 3", "wave 2", "wave 1", "background"])
        let background = objects(layers[3]).first { string($0["ty"]) == "fl" }
        #expect(string(background?["c"]?["sid"]) == "background")
        #expect(items(background?["c"]?["k"]).compactMap { number($0) } == [0.8912, 0.95, 0.9931])
        let waves = driftGroups(Array(layers.prefix(3)))
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

    /// The surface path is wider than the shape by the distance it drifts, and its vertices, moved
    /// by the level group's position (the still water line), lie on the layer's sine at frame 0
    /// (within the rounding of 2 decimals).
    @Test func surfaceVerticesLieOnTheSine() throws {
        let (doc, animation) = try document("classic")
        let model = WaveModel(config: animation.config, plan: animation.plan)
        let surfaces = model.surfaces(frame: 0, of: animation.plan.frameCount)
        let layers = Array(items(doc["layers"]).prefix(3))
        let groups = driftGroups(layers)
        let lines = layers.map { items(items(items($0["shapes"]).first?["it"]).last?["p"]?["k"]).compactMap { number($0) } }
        #expect(lines.allSatisfy { $0 == [0, model.stillLevel(frame: 0, of: animation.plan.frameCount)] })
        // Front layer first.
        for (g, layer) in zip(groups, (0..<3).reversed()) {
            let path = try #require(items(g["it"]).first?["ks"]?["k"])
            let vertices = items(path["v"]).map { items($0).compactMap { number($0) } }
            let surface = vertices.dropLast(2)
            #expect(surface.first![0] <= -animation.config.layers[layer].wavelength)
            #expect(surface.last![0] >= Double(animation.config.width))
            for v in surface {
                #expect(abs(v[1] + lines[0][1] - surfaces.surface(layer: layer, atX: v[0])) <= 0.006, "layer \(layer) at x \(v[0])")
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
                guard string(shape["nm"]) == "level", let transform = items(shape["it"]).last, number(transform["p"]?["a"]) == 1 else { return nil }
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
        // One level group per wave layer, all with the same keyframes.
        #expect(ramp.count == 3 && ramp.allSatisfy { $0.map(\.t) == [0, 99, 100] && $0[0].x == 0 })
    }

    /// orb: the water composed in a precomposition clipped by a track matte of the shape; the label's
    /// glyphs once, as the matte of a layer coloured by the front surface; the border a stroke; no
    /// masks, effects or expressions.
    @Test func orbMattesTheWaterAndTheLabel() throws {
        let (doc, _) = try document("orb")
        let layers = items(doc["layers"])
        #expect(layers.map { number($0["ty"]) } == [4, 4, 0])
        #expect(layers.map { string($0["nm"]) } == ["border", "shape", "water"])
        #expect(string(objects(layers[0]).first { string($0["ty"]) == "st" }?["ty"]) == "st")
        #expect(number(layers[1]["td"]) == 1 && number(layers[2]["tt"]) == 1)
        #expect(string(layers[2]["refId"]) == "water")
        let water = try #require(items(doc["assets"]).first { string($0["id"]) == "water" })
        let inner = items(water["layers"])
        #expect(inner.map { string($0["nm"]) } == ["label", "label color", "wave 3", "wave 2", "wave 1"])
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
        // It hangs from the null layer `level` (right under it), placed relative to the water line.
        let layers = items(doc["layers"])
        let index = try #require(layers.firstIndex { number($0["ty"]) == 2 })
        let null = layers[index + 1]
        #expect(number(null["ty"]) == 3 && string(null["nm"]) == "level" && number(rider["parent"]) == number(null["ind"]))
        #expect(string(null["ks"]?["p"]?["sid"]) == "level")
        let line = try #require(number(items(null["ks"]?["p"]?["k"]).last))
        let first = items(items(rider["ks"]?["p"]?["k"]).first?["s"]).compactMap { number($0) }
        let model = WaveModel(config: animation.config, plan: animation.plan)
        let pose = try #require(animation.config.rider).pose(on: model.surfaces(atLoopFraction: 0, frames: n), box: animation.config.box)
        #expect(abs(line - model.stillLevel(frame: 0, of: n)) <= 0.0005)
        #expect(abs(first[0] - pose.x) <= 0.005 && abs(first[1] + line - pose.y) <= 0.006)
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

    /// The layer names apps target: `wave 1`…`wave n` back to front (each a layer whose only shape
    /// is the group `level`, holding the drift group), and the label, shape, water, border and
    /// background layers where the preset has them.
    @Test(arguments: ["boat", "classic", "dark", "drop", "gradient-drop", "heart", "orb", "progress-bar", "progress-bar-horizontal", "spinner"])
    func layersAreNamedStably(_ name: String) throws {
        let (doc, animation) = try document(name)
        let layers = items(doc["layers"]) + items(doc["assets"]).flatMap { items($0["layers"]) }
        let names = layers.compactMap { string($0["nm"]) }
        #expect(names.count == layers.count, "every layer is named")
        // A gradient layer is two: its moving surface (`wave N surface`, holding the level group)
        // as the matte of the still painted `wave N`.
        let waves = names.filter { $0.hasPrefix("wave ") && !$0.hasSuffix(" surface") }
        #expect(waves == (1...animation.config.layers.count).reversed().map { "wave \($0)" })
        let gradients = Set(animation.config.layers.indices.filter { animation.config.layers[$0].gradient != nil }.map { "wave \($0 + 1)" })
        #expect(Set(names.filter { $0.hasSuffix(" surface") }) == Set(gradients.map { $0 + " surface" }))
        for layer in layers where string(layer["nm"])?.hasPrefix("wave ") == true && !gradients.contains(string(layer["nm"])!) {
            let shapes = items(layer["shapes"])
            #expect(shapes.count == 1 && string(shapes[0]["nm"]) == "level")
            let drift = items(shapes[0]["it"]).filter { string($0["ty"]) == "gr" }
            #expect(drift.count == 1 && string(items(drift[0]["it"]).last?["ty"]) == "tr")
        }
        #expect(names.contains("border") == (animation.config.border != nil))
        #expect(names.contains("label") == (animation.config.label != nil))
        #expect(names.contains("rider") == (animation.config.rider != nil))
    }

    /// The level: every group named `level` (and the null layer `level`) has the position (0, y),
    /// y the still water line box.y + box.height × (1 − level), with the slot id `level`; the
    /// top-level `slots` holds the same property; no drift keyframe shares that property.
    @Test(arguments: ["boat", "classic", "orb", "classic-0.37"])
    func levelIsOneSlottedPosition(_ name: String) throws {
        let preset = name.hasPrefix("classic") ? "classic" : name
        let (doc, animation) = try document(preset, name == "classic-0.37" ? ["level=0.37"] : [])
        let box = animation.config.box
        let level = animation.config.level.level(frame: 0, of: animation.plan.frameCount)
        let expected = box.y + box.height * (1 - level)
        let slot = try #require(doc["slots"]?["level"]?["p"])
        #expect(number(slot["a"]) == 0)
        let value = items(slot["k"]).compactMap { number($0) }
        #expect(value.count == 2 && value[0] == 0 && abs(value[1] - expected) <= 0.0005)
        let levelGroups = objects(doc).filter { string($0["nm"]) == "level" && string($0["ty"]) == "gr" }
        #expect(!levelGroups.isEmpty)
        for group in levelGroups {
            let position = try #require(items(group["it"]).last?["p"])
            #expect(string(position["sid"]) == "level")
            #expect(items(position["k"]).compactMap { number($0) } == value)
        }
        let slotted = objects(doc).filter { string($0["sid"]) == "level" }
        #expect(slotted.count == levelGroups.count + (animation.config.rider == nil ? 0 : 1))
    }

    /// Colours: every fill and stroke colour but the mattes' white names a slot, each slot in the
    /// top-level `slots` with the value the property shows; the names are `ThemeColors`'.
    @Test(arguments: ["boat", "classic", "dark", "drop", "gradient-drop", "heart", "orb", "progress-bar", "progress-bar-horizontal", "spinner"])
    func everyColourIsSlotted(_ name: String) throws {
        let (doc, animation) = try document(name)
        let paints = objects(doc).filter { ["fl", "st"].contains(string($0["ty"]) ?? "") }
        let colours = ThemeColors(animation.config)
        for paint in paints {
            guard let c = paint["c"] else { continue }
            let value = items(c["k"]).compactMap { number($0) }
            guard let sid = string(c["sid"]) else {
                // A matte's white, or the black stroke that shrinks a path's luminance matte by its inset.
                #expect(value == [1, 1, 1] || value == [0.001, 0.001, 0.001], "an unslotted colour that is not a matte's: \(value)")
                continue
            }
            #expect(colours[sid] != nil, "\(sid) is not a ThemeColors name")
            #expect(items(doc["slots"]?[sid]?["p"]?["k"]).compactMap { number($0) } == value, "\(sid)")
        }
        for (id, _) in colours.named where id != "background" || animation.config.background.a > 0 {
            #expect(doc["slots"]?[id] != nil, "no slot \(id)")
        }
    }

    /// Gradients are slotted: each gradient fill's stops (`g`) name the slot of its colour
    /// (`wave-N`, `background`), whose value is the same stops, so a dotLottie theme's `Gradient`
    /// rule switches them; the dark twin's file holds the dark stops. Where the dark gradient runs
    /// along another line, the start and end points are slots too (`wave-N-start`, `wave-N-end`).
    /// (scripts/checks/check-lottie renders each theme's rules in rlottie against the raster.)
    @Test func gradientsAreSlotted() throws {
        let (light, animation) = try document("gradient-drop")
        let (dark, _) = try document("gradient-drop", ["theme=\"dark\""])
        let fills = objects(light).filter { string($0["ty"]) == "gf" }
        #expect(fills.count == animation.config.layers.count)
        var ids: [String] = []
        for fill in fills {
            let g = try #require(fill["g"])
            let sid = try #require(string(g["sid"]))
            ids.append(sid)
            let slot = try #require(light["slots"]?[sid]?["p"])
            #expect(number(slot["p"]) == number(g["p"]) && slot["k"]?.compactText == g["k"]?.compactText, "\(sid)")
            #expect(string(fill["s"]?["sid"]) == nil && string(fill["e"]?["sid"]) == nil, "the themes' lines agree, so they are not slotted")
            #expect(dark["slots"]?[sid]?["p"]?.compactText != slot.compactText, "\(sid): the dark stops are the light ones")
        }
        #expect(Set(ids) == ["wave-1", "wave-2", "wave-3"])
        let dark0 = try #require(animation.config.themeColors["dark"]?.gradients["wave-1"])
        #expect(number(dark["slots"]?["wave-1"]?["p"]?["p"]) == Double(dark0.resolvedStops.count))

        let folder = try TemporaryFolder()
        let turned = try folder.write(#"{"extends": "gradient-drop", "dark": {"layers[0].color": "linear-gradient(90deg, #000, #FFF)"}}"#,
                                      to: "turned.json")
        let (other, _) = try document(turned)
        let fill = try #require(objects(other).first { string($0["ty"]) == "gf" && string($0["g"]?["sid"]) == "wave-1" })
        #expect(string(fill["s"]?["sid"]) == "wave-1-start" && string(fill["e"]?["sid"]) == "wave-1-end")
        #expect(other["slots"]?["wave-1-start"] != nil && other["slots"]?["wave-1-end"] != nil)
    }

    /// dotLottie: the archive's entries in their fixed order, deflated, stamped 1980-01-01 00:00,
    /// and the same bytes from two renders. (scripts/checks/check-lottie unzips it with Python's zipfile,
    /// checks the manifest and renders each theme in rlottie.)
    @Test(arguments: [("classic", ["manifest.json", "a/classic.json", "t/light.json", "t/dark.json"]),
                      ("boat", ["manifest.json", "a/boat.json", "t/light.json", "i/rider.png"]),
                      ("spinner", ["manifest.json", "a/spinner.json", "t/light.json"])])
    func dotLottieEntries(_ name: String, _ expected: [String]) throws {
        let a = try RenderPipeline(threads: 1).render(name, format: .dotlottie)
        let b = try RenderPipeline(threads: 2).render(name, format: .dotlottie)
        #expect(a == b)
        // Local file headers, read one after another.
        var names: [String] = []
        var at = 0
        func u16(_ i: Int) -> Int { Int(a[i]) | Int(a[i + 1]) << 8 }
        func u32(_ i: Int) -> Int { u16(i) | u16(i + 2) << 16 }
        while at + 30 <= a.count, u32(at) == 0x0403_4b50 {
            #expect(u16(at + 8) == 8, "deflated")
            #expect(u16(at + 10) == 0 && u16(at + 12) == (1 << 5 | 1), "1980-01-01 00:00")
            let nameLength = u16(at + 26), extra = u16(at + 28), size = u32(at + 18)
            names.append(String(decoding: a[(at + 30)..<(at + 30 + nameLength)], as: UTF8.self))
            at += 30 + nameLength + extra + size
        }
        #expect(names == expected)
    }
}
