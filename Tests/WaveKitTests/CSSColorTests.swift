import Foundation
import Testing
@testable import WaveKit

/// Colors as CSS Color Level 4 writes them (CSSColor): every form, clamping, rounding and the
/// messages for what is not a color.
@Suite struct CSSColorTests {
    /// Input → the color a browser computes for it.
    static let accepted: [(String, RGBA)] = [
        // Hex, 3, 4, 6 and 8 digits, any case; short forms double each digit.
        ("#abc", RGBA(0xAA, 0xBB, 0xCC)), ("#ABC", RGBA(0xAA, 0xBB, 0xCC)),
        ("#F0F8", RGBA(0xFF, 0x00, 0xFF, 0x88)), ("#f0f8", RGBA(0xFF, 0x00, 0xFF, 0x88)),
        ("#30CCF9", RGBA(48, 204, 249)), ("#30ccf980", RGBA(48, 204, 249, 128)), ("#30CcF9fF", RGBA(48, 204, 249)),
        ("  #abc\t", RGBA(0xAA, 0xBB, 0xCC)), ("\n#abc\n", RGBA(0xAA, 0xBB, 0xCC)),
        // rgb(), legacy comma syntax: numbers 0…255, or all percentages; rgba() is the same function.
        ("rgb(48, 204, 249)", RGBA(48, 204, 249)), ("rgb(48,204,249)", RGBA(48, 204, 249)),
        ("rgb( 1 , 2 , 3 )", RGBA(1, 2, 3)), ("rgb(1,\u{00A0}2,3)", RGBA(1, 2, 3)),
        ("rgba(0,0,0,.5)", RGBA(0, 0, 0, 128)), ("rgba(0, 0, 0, 0.5)", RGBA(0, 0, 0, 128)),
        ("rgba(0,0,0,0)", RGBA(0, 0, 0, 0)), ("rgba(0,0,0,1)", RGBA(0, 0, 0)), ("rgba(0,0,0,1.)", RGBA(0, 0, 0)),
        ("rgb(1, 2, 3, 0.2)", RGBA(1, 2, 3, 51)), ("rgba(1, 2, 3)", RGBA(1, 2, 3)),
        ("rgb(100%, 50%, 0%)", RGBA(255, 128, 0)), ("rgba(0%, 0%, 100%, 25%)", RGBA(0, 0, 255, 64)),
        ("RGB(48, 204, 249)", RGBA(48, 204, 249)), ("rgb(+5, 0, 0)", RGBA(5, 0, 0)), ("rgb(1e2, 0, 0)", RGBA(100, 0, 0)),
        // rgb(), modern space syntax with an optional "/ alpha"; numbers and percentages may mix.
        ("rgb(255 0 0 / 50%)", RGBA(255, 0, 0, 128)), ("rgb(255 0 0/0.25)", RGBA(255, 0, 0, 64)),
        ("rgb(48 204 249)", RGBA(48, 204, 249)), ("rgba(255 0 0)", RGBA(255, 0, 0)),
        ("rgb(100% 50% 0% / 10%)", RGBA(255, 128, 0, 26)), ("rgb(20% 128 none)", RGBA(51, 128, 0)),
        ("rgb(\n1\t2 3 )", RGBA(1, 2, 3)), ("rgb(1 2 3 / none)", RGBA(1, 2, 3, 0)),
        // Fractions round half up; out of range clamps.
        ("rgb(127.5, 0.4, 254.5)", RGBA(128, 0, 255)), ("rgb(0.5 1.49 2.5)", RGBA(1, 1, 3)),
        ("rgb(300, -20, 255)", RGBA(255, 0, 255)), ("rgb(150% -10% 50%)", RGBA(255, 0, 128)),
        ("rgba(0,0,0,2)", RGBA(0, 0, 0)), ("rgba(0,0,0,-1)", RGBA(0, 0, 0, 0)), ("rgb(0 0 0 / 150%)", RGBA(0, 0, 0)),
        ("rgb(1e999 0 0)", RGBA(255, 0, 0)),
        // hsl(): hue in deg, turn, rad, grad or a bare number of degrees, wrapping; both syntaxes.
        ("hsl(120deg 100% 25%)", RGBA(0, 128, 0)), ("hsl(0.5turn, 50%, 50%)", RGBA(64, 191, 191)),
        ("hsl(120, 100%, 50%)", RGBA(0, 255, 0)), ("hsl(0 100% 50%)", RGBA(255, 0, 0)),
        ("hsl(360 100% 50%)", RGBA(255, 0, 0)), ("hsl(-120 100% 50%)", RGBA(0, 0, 255)),
        ("hsl(720deg 100% 50%)", RGBA(255, 0, 0)), ("hsl(200grad 100% 50%)", RGBA(0, 255, 255)),
        ("hsl(3.141592653589793rad 100% 50%)", RGBA(0, 255, 255)), ("HSL(120DEG 100% 25%)", RGBA(0, 128, 0)),
        ("hsla(240, 100%, 50%, 0.5)", RGBA(0, 0, 255, 128)), ("hsl(240 100% 50% / 25%)", RGBA(0, 0, 255, 64)),
        ("hsl(240, 100%, 50%, 25%)", RGBA(0, 0, 255, 64)), ("hsla(240 100% 50%)", RGBA(0, 0, 255)),
        ("hsl(60 100 50)", RGBA(255, 255, 0)), ("hsl(none 0% 50%)", RGBA(128, 128, 128)),
        ("hsl(330, 100%, 70.6%)", RGBA(255, 105, 180)),
        // Saturation and lightness clamp to 0…100 %.
        ("hsl(0 150% 50%)", RGBA(255, 0, 0)), ("hsl(0 100% 120%)", RGBA(255, 255, 255)), ("hsl(0 -20% 50%)", RGBA(128, 128, 128)),
        ("hsl(0 100% -5%)", RGBA(0, 0, 0)),
        // Keywords and names, ASCII case-insensitive.
        ("transparent", RGBA(0, 0, 0, 0)), ("Transparent", RGBA(0, 0, 0, 0)), ("TRANSPARENT", RGBA(0, 0, 0, 0)),
        ("ReBeCcaPurple", RGBA(0x66, 0x33, 0x99)), ("rebeccapurple", RGBA(0x66, 0x33, 0x99)),
        ("hotpink", RGBA(0xFF, 0x69, 0xB4)), ("  steelblue ", RGBA(0x46, 0x82, 0xB4)),
        ("grey", RGBA(128, 128, 128)), ("gray", RGBA(128, 128, 128)), ("DarkSlateGrey", RGBA(0x2F, 0x4F, 0x4F)),
        ("white", .white), ("black", .black),
    ]

    static let rejected: [String] = [
        "", " ", "#", "#1", "#12", "#12345", "#1234567", "#123456789", "#ggg", "#ＡＢＣ", "# abc",
        "rgb(1,2)", "rgb(1 2 3 4)", "rgb(1,2,3,4,5)", "rgb(1 2, 3)", "rgb(1, 2 3)", "rgb(1,2,3,)", "rgb(,1,2,3)",
        "rgb(1,2,3", "rgb 1,2,3)", "rgb (1,2,3)", "rgb()", "rgb(1 2 3 /)", "rgb(1 2 / 3)", "rgb(1 2 3 / 4 5)",
        "rgb(1 2 3 / 0.5, 1)", "rgb(10%, 20, 30)", "rgb(none, 0, 0)", "rgb(10deg 0 0)", "rgb(1 2 3 / 1deg)",
        "rgb(１,2,3)", "rgb(1,2,3))", "rgb(x 2 3)", "rgb(. 2 3)", "rgb(1 2 3) x",
        "hsl(x)", "hsl(120, 100, 50)", "hsl(120%, 50%, 50%)", "hsl(120px 50% 50%)", "hsl(120 100%, 50%)",
        "hsl(120deg 50% 50% 1)", "hsl(120, 50%)", "hsla(120, 50%, 50%, 1deg)",
        "blu", "hotpnk", "steel blue", "hwb(0 0% 0%)", "color(srgb 1 0 0)", "currentcolor", "none", "inherit",
        "rgba(0,0,0,0x1p-1)",
    ]

    @Test func everyFormParses() {
        for (text, expected) in Self.accepted {
            #expect(RGBA(parsing: text) == expected, "\(text)")
        }
    }

    @Test func malformedColorsAreRefused() {
        for text in Self.rejected {
            #expect(RGBA(parsing: text) == nil, "\(text)")
        }
    }

    /// The forms accepted before CSS colors keep their values: every channel in hex and rgb(),
    /// and rgba()'s alpha as round(a × 255).
    @Test func earlierFormsKeepTheirValues() {
        func hex(_ v: Int) -> String { String(format: "%02X", v) }
        for v in 0...255 {
            #expect(RGBA(parsing: "#\(hex(v))\(hex(255 - v))\(hex(v / 2))\(hex(v))") == RGBA(UInt8(v), UInt8(255 - v), UInt8(v / 2), UInt8(v)))
            #expect(RGBA(parsing: "rgb(\(v), \(255 - v), \(v / 3))") == RGBA(UInt8(v), UInt8(255 - v), UInt8(v / 3)))
        }
        for d in 0...16 {
            let digit = String(d == 16 ? "0" : String(d, radix: 16))
            let expected = UInt8((d == 16 ? 0 : d) * 17)
            #expect(RGBA(parsing: "#\(digit)\(digit)\(digit)") == RGBA(expected, expected, expected))
        }
        for k in 0...1000 {
            let a = Double(k) / 1000
            #expect(RGBA(parsing: "rgba(0,0,0,\(a))")?.a == UInt8((a * 255).rounded()), "\(a)")
        }
    }

    @Test func all148NamedColors() {
        #expect(CSSColor.namedColors.count == 148)
        #expect(Set(CSSColor.namedColors.map(\.name)).count == 148)
        for (name, v) in CSSColor.namedColors {
            let hex = "#" + String(format: "%06X", v)
            #expect(RGBA(parsing: name) == RGBA(parsing: hex), "\(name)")
            #expect(RGBA(parsing: name.uppercased()) == RGBA(parsing: hex), "\(name)")
            // Each grey has its gray.
            if name.contains("grey") { #expect(RGBA(parsing: name.replacingOccurrences(of: "grey", with: "gray")) == RGBA(parsing: name)) }
        }
        #expect(RGBA(parsing: "aliceblue") == RGBA(0xF0, 0xF8, 0xFF))
        #expect(RGBA(parsing: "yellowgreen") == RGBA(0x9A, 0xCD, 0x32))
        #expect(RGBA(parsing: "lightgoldenrodyellow") == RGBA(0xFA, 0xFA, 0xD2))
    }

    /// hsl(h, s%, l%) → r, g, b from Python's colorsys, each channel round-half-up of value × 255
    /// (the same values as the CSS algorithm in exact arithmetic; none of these differ). Made with:
    ///   python3 -c 'import colorsys,random,math; random.seed(4); t=[(h,s,l)+tuple(math.floor(v*255+.5) for v in colorsys.hls_to_rgb(h/360,l/100,s/100)) for h,s,l in [(random.randrange(360),random.randrange(101),random.randrange(101)) for _ in range(300)]]; print(",\n".join(", ".join("(%d, %d, %d, %d, %d, %d)"%r for r in t[i:i+5]) for i in range(0,300,5)))'
    static let colorsysTable: [(Int, Int, Int, Int, Int, Int)] = [
        (120, 38, 13, 21, 46, 21), (202, 61, 19, 19, 56, 78), (46, 8, 2, 6, 5, 5), (205, 70, 37, 28, 105, 160), (30, 28, 66, 193, 168, 144),
        (274, 46, 35, 95, 48, 130), (88, 13, 33, 85, 95, 73), (109, 3, 82, 208, 210, 208), (133, 34, 24, 40, 82, 49), (84, 39, 37, 102, 131, 58),
        (321, 93, 47, 231, 8, 153), (44, 77, 43, 194, 149, 25), (343, 49, 64, 208, 118, 144), (127, 22, 31, 62, 96, 66), (242, 35, 11, 19, 18, 38),
        (280, 38, 0, 0, 0, 0), (149, 73, 90, 211, 248, 229), (159, 97, 65, 79, 252, 192), (99, 52, 54, 119, 199, 77), (306, 36, 55, 182, 99, 173),
        (231, 20, 29, 59, 64, 89), (156, 33, 5, 9, 17, 14), (41, 5, 59, 156, 152, 145), (320, 35, 66, 199, 138, 178), (273, 82, 60, 161, 69, 237),
        (358, 43, 18, 66, 26, 27), (344, 25, 8, 26, 15, 18), (211, 25, 81, 194, 206, 219), (323, 56, 35, 139, 39, 101), (94, 45, 55, 133, 192, 89),
        (301, 41, 81, 226, 187, 226), (285, 25, 41, 118, 78, 131), (51, 7, 90, 231, 231, 228), (117, 35, 97, 245, 250, 245), (298, 78, 30, 132, 17, 136),
        (62, 42, 22, 78, 80, 33), (148, 58, 3, 3, 12, 7), (21, 45, 89, 240, 223, 214), (42, 36, 94, 245, 242, 234), (345, 41, 2, 7, 3, 4),
        (165, 36, 41, 67, 142, 123), (78, 99, 83, 229, 255, 169), (210, 79, 87, 196, 222, 248), (39, 37, 79, 221, 207, 182), (98, 56, 37, 80, 147, 42),
        (69, 32, 48, 150, 162, 83), (306, 20, 42, 129, 86, 124), (293, 1, 46, 118, 116, 118), (22, 58, 21, 85, 45, 22), (186, 100, 46, 0, 211, 235),
        (148, 73, 12, 8, 53, 29), (224, 26, 54, 107, 123, 168), (106, 14, 7, 17, 20, 15), (31, 7, 94, 241, 240, 239), (86, 76, 86, 223, 246, 192),
        (76, 77, 5, 17, 23, 3), (279, 62, 74, 201, 148, 230), (127, 41, 4, 6, 14, 7), (62, 67, 37, 153, 158, 31), (209, 83, 25, 11, 66, 117),
        (244, 25, 30, 60, 57, 96), (224, 52, 62, 108, 135, 208), (18, 28, 53, 169, 122, 102), (227, 31, 82, 195, 201, 223), (219, 27, 63, 135, 153, 186),
        (96, 4, 4, 10, 11, 10), (130, 32, 31, 54, 104, 62), (269, 26, 98, 250, 249, 251), (118, 53, 33, 43, 129, 40), (72, 41, 6, 19, 22, 9),
        (161, 72, 14, 10, 61, 45), (291, 51, 83, 227, 190, 234), (334, 91, 95, 254, 231, 241), (20, 63, 49, 204, 99, 46), (47, 55, 26, 103, 87, 30),
        (293, 21, 43, 127, 87, 133), (151, 84, 60, 67, 239, 156), (328, 40, 53, 183, 87, 138), (270, 27, 83, 212, 200, 223), (351, 34, 43, 147, 72, 84),
        (200, 63, 9, 8, 28, 37), (143, 80, 85, 186, 247, 210), (97, 5, 50, 126, 134, 121), (317, 16, 98, 251, 249, 250), (137, 85, 7, 3, 33, 11),
        (85, 88, 81, 214, 249, 164), (237, 72, 60, 80, 87, 226), (206, 49, 27, 35, 73, 103), (1, 27, 20, 65, 38, 37), (6, 78, 32, 145, 31, 18),
        (59, 50, 98, 252, 252, 247), (195, 28, 70, 157, 189, 200), (27, 25, 20, 64, 50, 38), (343, 77, 42, 190, 25, 71), (287, 99, 100, 255, 255, 255),
        (241, 67, 56, 70, 68, 218), (13, 10, 4, 11, 10, 9), (356, 76, 14, 63, 9, 12), (250, 71, 32, 43, 24, 140), (311, 99, 17, 86, 0, 71),
        (21, 46, 10, 37, 22, 14), (267, 1, 38, 97, 96, 98), (177, 9, 10, 23, 28, 28), (278, 58, 48, 141, 51, 193), (105, 100, 39, 50, 199, 0),
        (198, 29, 97, 245, 248, 250), (249, 51, 12, 20, 15, 46), (39, 14, 79, 209, 204, 194), (187, 65, 55, 66, 197, 215), (212, 91, 99, 250, 252, 255),
        (227, 8, 80, 200, 202, 208), (100, 81, 38, 71, 175, 18), (245, 54, 15, 21, 18, 59), (285, 21, 47, 132, 95, 145), (83, 22, 90, 231, 235, 224),
        (76, 41, 63, 179, 199, 122), (173, 33, 69, 150, 202, 196), (2, 90, 21, 102, 9, 5), (2, 82, 39, 181, 23, 18), (61, 69, 14, 60, 60, 11),
        (249, 100, 91, 216, 209, 255), (307, 61, 67, 222, 120, 210), (38, 66, 31, 131, 93, 27), (210, 37, 45, 72, 115, 157), (117, 98, 23, 7, 116, 1),
        (320, 0, 86, 219, 219, 219), (27, 78, 40, 182, 94, 22), (278, 59, 100, 255, 255, 255), (290, 39, 64, 187, 127, 199), (225, 78, 79, 160, 181, 243),
        (226, 50, 18, 23, 34, 69), (128, 98, 76, 134, 254, 150), (185, 84, 43, 18, 186, 202), (68, 55, 10, 36, 40, 11), (310, 18, 86, 226, 213, 224),
        (318, 22, 36, 112, 72, 100), (190, 25, 73, 169, 198, 203), (179, 86, 79, 155, 248, 246), (47, 9, 51, 141, 136, 119), (330, 22, 42, 131, 84, 107),
        (334, 47, 41, 154, 55, 98), (89, 38, 2, 5, 7, 3), (309, 2, 67, 173, 169, 172), (45, 45, 12, 44, 37, 17), (81, 23, 74, 193, 204, 173),
        (253, 84, 73, 153, 128, 244), (39, 97, 14, 70, 46, 1), (88, 83, 61, 161, 238, 73), (345, 95, 28, 139, 4, 37), (316, 100, 84, 255, 173, 233),
        (155, 88, 51, 20, 240, 148), (306, 30, 62, 187, 129, 181), (113, 39, 47, 84, 167, 73), (117, 95, 41, 15, 204, 5), (275, 80, 67, 182, 104, 238),
        (231, 51, 64, 116, 130, 210), (205, 40, 36, 55, 98, 129), (224, 52, 75, 158, 176, 224), (6, 32, 23, 77, 44, 40), (276, 58, 88, 228, 207, 242),
        (287, 78, 46, 169, 26, 209), (206, 49, 79, 175, 205, 228), (14, 19, 65, 183, 157, 149), (34, 58, 80, 234, 208, 174), (177, 77, 39, 23, 176, 168),
        (46, 96, 33, 165, 127, 3), (247, 28, 81, 196, 193, 220), (244, 77, 99, 251, 250, 254), (33, 19, 30, 91, 78, 62), (35, 38, 16, 56, 43, 25),
        (24, 20, 50, 153, 122, 102), (297, 87, 79, 243, 155, 248), (280, 91, 68, 198, 99, 248), (134, 2, 67, 169, 173, 170), (125, 20, 96, 243, 247, 243),
        (49, 26, 4, 13, 12, 8), (162, 10, 15, 34, 42, 40), (138, 7, 82, 206, 212, 208), (147, 78, 80, 164, 244, 200), (359, 22, 93, 241, 233, 233),
        (76, 83, 53, 182, 235, 36), (66, 90, 92, 249, 253, 216), (41, 71, 46, 201, 148, 34), (355, 0, 92, 235, 235, 235), (282, 19, 64, 170, 146, 181),
        (210, 19, 27, 56, 69, 82), (152, 61, 64, 107, 219, 167), (34, 48, 21, 79, 57, 28), (83, 32, 65, 172, 194, 137), (200, 68, 87, 199, 229, 244),
        (155, 51, 42, 52, 162, 116), (87, 49, 7, 19, 27, 9), (216, 3, 35, 87, 89, 92), (346, 2, 38, 99, 95, 96), (78, 10, 20, 53, 56, 46),
        (59, 77, 1, 5, 4, 1), (118, 29, 70, 158, 201, 156), (4, 61, 91, 246, 220, 218), (272, 23, 57, 147, 120, 171), (349, 89, 48, 231, 13, 53),
        (172, 22, 67, 152, 189, 184), (300, 24, 13, 41, 25, 41), (243, 79, 45, 33, 24, 205), (156, 82, 52, 32, 233, 153), (307, 94, 4, 20, 1, 18),
        (323, 27, 32, 104, 60, 87), (296, 84, 75, 238, 138, 245), (157, 100, 61, 56, 255, 179), (320, 43, 10, 36, 15, 29), (120, 40, 13, 20, 46, 20),
        (337, 89, 4, 19, 1, 8), (309, 41, 67, 205, 136, 195), (243, 45, 10, 15, 14, 37), (90, 91, 5, 13, 24, 1), (255, 66, 69, 150, 124, 228),
        (306, 91, 31, 151, 7, 137), (19, 25, 86, 228, 216, 210), (36, 43, 100, 255, 255, 255), (308, 17, 89, 232, 222, 230), (157, 14, 64, 150, 176, 166),
        (260, 0, 9, 23, 23, 23), (115, 79, 35, 30, 160, 19), (318, 2, 93, 238, 237, 237), (17, 1, 61, 157, 155, 155), (357, 18, 27, 81, 56, 58),
        (184, 31, 94, 235, 244, 244), (176, 38, 49, 77, 172, 166), (323, 77, 51, 226, 34, 152), (17, 22, 52, 160, 121, 106), (252, 8, 96, 244, 244, 246),
        (261, 65, 38, 78, 34, 160), (286, 88, 36, 135, 11, 173), (106, 90, 90, 217, 252, 207), (223, 41, 22, 33, 46, 79), (109, 2, 61, 154, 158, 154),
        (223, 35, 42, 70, 91, 145), (208, 80, 52, 35, 139, 231), (164, 96, 79, 150, 253, 225), (107, 32, 35, 73, 118, 61), (261, 11, 3, 7, 7, 8),
        (206, 33, 77, 177, 199, 216), (147, 86, 82, 170, 249, 205), (67, 78, 97, 252, 253, 241), (160, 11, 100, 255, 255, 255), (84, 79, 11, 32, 50, 6),
        (358, 27, 32, 104, 60, 61), (342, 27, 82, 221, 197, 204), (255, 97, 14, 18, 1, 70), (330, 43, 1, 4, 1, 3), (233, 72, 26, 19, 30, 114),
        (85, 11, 31, 80, 88, 70), (265, 12, 14, 35, 31, 40), (161, 37, 72, 157, 210, 193), (297, 84, 19, 85, 8, 89), (38, 84, 22, 103, 69, 9),
        (13, 96, 98, 255, 247, 245), (92, 86, 26, 62, 123, 9), (134, 4, 75, 189, 194, 190), (166, 80, 42, 21, 193, 153), (310, 46, 20, 74, 28, 67),
        (87, 96, 27, 75, 135, 3), (25, 6, 20, 54, 50, 48), (350, 7, 86, 222, 217, 218), (134, 90, 85, 182, 251, 198), (343, 63, 13, 54, 12, 24),
        (102, 17, 50, 119, 149, 106), (245, 76, 69, 126, 116, 236), (253, 69, 41, 64, 32, 177), (185, 55, 95, 235, 248, 249), (207, 4, 97, 247, 247, 248),
        (19, 23, 19, 60, 44, 37), (183, 28, 37, 68, 118, 121), (121, 46, 73, 154, 218, 156), (99, 79, 86, 211, 248, 191), (176, 49, 46, 60, 175, 167),
        (274, 90, 14, 40, 4, 68), (114, 24, 44, 91, 139, 85), (94, 68, 27, 63, 116, 22), (10, 3, 15, 39, 37, 37), (97, 37, 88, 222, 236, 213),
        (164, 69, 63, 96, 226, 191), (21, 39, 92, 243, 232, 227), (201, 20, 17, 35, 46, 52), (192, 79, 59, 68, 200, 233), (179, 45, 0, 0, 0, 0),
        (228, 89, 17, 5, 20, 82), (229, 3, 95, 242, 242, 243), (214, 27, 14, 26, 34, 45), (169, 37, 76, 171, 216, 208), (285, 6, 10, 26, 24, 27),
        (246, 20, 86, 214, 212, 226), (269, 7, 23, 59, 55, 63), (314, 30, 76, 212, 175, 204), (170, 76, 2, 1, 9, 8), (338, 2, 48, 125, 120, 122),
        (223, 29, 74, 169, 180, 208), (70, 79, 5, 19, 23, 3), (68, 23, 77, 206, 210, 183), (146, 29, 55, 107, 174, 136), (160, 69, 81, 173, 240, 218)
    ]

    @Test func hslMatchesColorsys() {
        #expect(Self.colorsysTable.count == 300)
        for (h, s, l, r, g, b) in Self.colorsysTable {
            let expected = RGBA(UInt8(r), UInt8(g), UInt8(b))
            #expect(RGBA(parsing: "hsl(\(h), \(s)%, \(l)%)") == expected, "hsl(\(h), \(s)%, \(l)%)")
            #expect(RGBA(parsing: "hsl(\(h)deg \(s)% \(l)%)") == expected, "hsl(\(h)deg \(s)% \(l)%)")
            #expect(RGBA(parsing: "hsl(\(Double(h) / 360)turn \(s)% \(l)% / 1)") == expected, "hsl(\(h) turn)")
        }
    }

    @Test func adviceForWhatIsNotAColor() {
        #expect(RGBA.advice(for: "hotpnk") == "did you mean \"hotpink\"?")
        #expect(RGBA.advice(for: "Steel Blue") == "did you mean \"steelblue\"?")
        #expect(RGBA.advice(for: "dark-slate-grey") == "did you mean \"darkslategrey\"?")
        #expect(RGBA.advice(for: "transparnt") == "did you mean \"transparent\"?")
        #expect(RGBA.advice(for: "#12345") == "a hex color has 3, 4, 6 or 8 digits")
        #expect(RGBA.advice(for: "#ggg") == "after \"#\" come hex digits 0-9 and A-F")
        #expect(RGBA.advice(for: "rgb(1,2)")?.hasPrefix("rgb() takes three numbers") == true)
        #expect(RGBA.advice(for: "hsl(x)")?.hasPrefix("hsl() takes a hue") == true)
        #expect(RGBA.advice(for: "hwb(0 0% 0%)") == "the functions are rgb(), rgba(), hsl() and hsla()")
        #expect(RGBA.advice(for: "qqqqqqqq") == nil)
    }

    /// A bad color is reported where it is written, with the forms and a likely name.
    @Test func aBadColorIsLocatedAndExplained() throws {
        let text = "{\n  \"layers\": [\n    {\"color\": \"hotpnk\"}\n  ],\n  \"background\": 12\n}"
        let error = try #require(throws: WaveError.self) { try PresetLoader(bundled: ["p": text]).load("p") }
        let forms = "expected a color (#RRGGBB, #RGB, rgb(), hsl() or a CSS name such as \"steelblue\")"
        #expect(error.problems.map { "\($0.line):\($0.column) \($0.keyPath): \($0.message)" } == [
            "5:17 background: \(forms), got 12",
            "3:15 layers[0].color: \(forms), got \"hotpnk\" (did you mean \"hotpink\"?)",
        ])
    }

    /// Every key that takes a color reads the CSS forms.
    @Test func everyColorKeyReadsCSS() throws {
        let css = ##"{"background": "Transparent", "border": {"color": "rgb(0 0 0 / 50%)"}, "gif": {"matte": "ivory"}, "##
            + ##""label": {"color": "hsl(0.5turn, 50%, 50%)", "colorOnWater": "white", "stroke": {"color": "navy", "width": 0.05}}, "##
            + ##""layers": [{"color": "hotpink"}, {"color": "#F0F8"}]}"##
        let hex = ##"{"background": "#00000000", "border": {"color": "#00000080"}, "gif": {"matte": "#FFFFF0"}, "##
            + ##""label": {"color": "#40BFBF", "colorOnWater": "#FFFFFF", "stroke": {"color": "#000080", "width": 0.05}}, "##
            + ##""layers": [{"color": "#FF69B4"}, {"color": "#FF00FF88"}]}"##
        let a = try decode(css).get(), b = try decode(hex).get()
        #expect(a == b)
        #expect(a.layers[0].color == RGBA(0xFF, 0x69, 0xB4))
        #expect(a.gif.matte == RGBA(0xFF, 0xFF, 0xF0))
        #expect(problems(#"{"gif": {"matte": "transparent"}}"#) == ["at gif.matte: must be an opaque color, got #00000000"])
    }

    /// Strings made of the characters colors are written with never trap, and whatever parses
    /// parses again from its hex form to the same color.
    @Test func arbitraryTextNeverTraps() {
        let alphabet = Array("#0123456789abcdefABCDEF(),/%. +-eE\tnonedegturnradgrslhrgbaXx")
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var parsed = 0
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var text = ["#", "rgb(", "rgba(", "hsl(", "hsla(", ""][Int(state >> 61) % 6]
            for _ in 0..<Int(state >> 33 & 15) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text.append(alphabet[Int(state >> 33) % alphabet.count])
            }
            if state & 1 == 0, !text.isEmpty, !text.hasPrefix("#") { text += ")" }
            if let c = RGBA(parsing: text) {
                parsed += 1
                #expect(RGBA(parsing: c.description) == c, "\(text)")
            } else {
                _ = RGBA.advice(for: text)
            }
        }
        #expect(parsed > 50)
        // Huge values clamp or wrap without trapping.
        #expect(RGBA(parsing: "hsl(1e308turn 100% 50%)") != nil)
        #expect(RGBA(parsing: "hsl(-1e999 100% 50%)") != nil)
        #expect(RGBA(parsing: "rgb(1e999% -1e999% 1e-999)") == RGBA(255, 0, 0))
    }
}
