/// A label's text coverage placed on the canvas, with its colors. The text itself is rendered
/// outside this module (FreeType); here it is only coverage to composite.
public struct LabelOverlay: Equatable, Sendable {
    /// Top-left corner of the mask on the canvas, in output pixels.
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    /// Fill and outline coverage 0…1, row by row.
    public var fill: [Float]
    public var stroke: [Float]
    let color: PremultipliedColor
    let colorOnWater: PremultipliedColor
    let strokeColor: PremultipliedColor

    /// Places a mask of `width` × `height` for `label` in `box`: centered horizontally, and
    /// vertically centered, or near the top or bottom of the box.
    public init(label: Label, box: Rect, width: Int, height: Int, fill: [Float], stroke: [Float]) {
        self.width = width
        self.height = height
        self.fill = fill
        self.stroke = stroke
        x = Int((box.midX - Double(width) / 2).rounded())
        switch label.position {
        case .center: y = Int((box.midY - Double(height) / 2).rounded())
        case .top: y = Int((box.y + box.height * 0.12).rounded())
        case .bottom: y = Int((box.maxY - box.height * 0.12 - Double(height)).rounded())
        }
        color = PremultipliedColor(label.color)
        colorOnWater = PremultipliedColor(label.colorOnWater)
        strokeColor = PremultipliedColor(label.strokeColor)
    }

    /// Whether the label may touch pixel (px, py).
    @inline(__always)
    func covers(_ px: Int, _ py: Int) -> Bool {
        let u = px - x, v = py - y
        guard u >= 0, v >= 0, u < width, v < height else { return false }
        let i = v * width + u
        return fill[i] > 0 || stroke[i] > 0
    }

    /// `under` with the label painted on it; `submerged` is the fraction of the pixel below the
    /// front layer's surface, where the text takes `colorOnWater`.
    @inline(__always)
    func paint(_ px: Int, _ py: Int, over under: PremultipliedColor, submerged: Double) -> PremultipliedColor {
        let i = (py - y) * width + (px - x)
        let text = color.mixed(with: colorOnWater, submerged)
        return under.under(strokeColor, coverage: Double(stroke[i])).under(text, coverage: Double(fill[i]))
    }
}
