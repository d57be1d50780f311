extension LabelTexts {
    /// A text whose ink is cut off: pixels it covers at least half that the frames do not show
    /// (`offCanvas` beyond the canvas's edges, `outsideShape` on the canvas but mostly outside the
    /// water region, where the label is not drawn).
    public struct Misfit: Equatable, Sendable {
        public var text: String
        public var offCanvas: Int
        public var outsideShape: Int
    }

    /// The texts that do not fit the shape or the canvas, the most cut off first. Only the pixels
    /// the texts ink are measured (each once, `StaticCoverage.water(_:_:model:)`), not the whole
    /// canvas: every render with a label asks.
    public func misfits(config: WaveConfig, plan: LoopPlan) -> [Misfit] {
        let model = WaveModel(config: config, plan: plan)
        let width = model.orientation.width
        var measured = [Float](repeating: .nan, count: width * model.orientation.height)
        return misfits(config: config, plan: plan, model: model) { i, j in
            let p = j * width + i
            if measured[p].isNaN { measured[p] = StaticCoverage.water(i, j, model: model) }
            return measured[p]
        }
    }

    /// `misfits(config:plan:)` from the whole canvas's coverage: the plain form it is tested against.
    func referenceMisfits(config: WaveConfig, plan: LoopPlan) -> [Misfit] {
        let model = WaveModel(config: config, plan: plan)
        let coverage = StaticCoverage(reference: model)
        return misfits(config: config, plan: plan, model: model) { i, j in coverage.water[j * coverage.width + i] }
    }

    /// The misfits, with `water(i, j)` the water coverage of wave-frame pixel (i, j).
    private func misfits(config: WaveConfig, plan: LoopPlan, model: WaveModel, water: (Int, Int) -> Float) -> [Misfit] {
        var out: [Misfit] = []
        for (text, overlay) in overlays {
            var misfit = Misfit(text: text, offCanvas: 0, outsideShape: 0)
            for v in 0..<overlay.height {
                for u in 0..<overlay.width {
                    let i = v * overlay.width + u
                    guard max(overlay.fill[i], overlay.stroke[i]) >= 0.5 else { continue }
                    let x = overlay.x + u, y = overlay.y + v
                    if x < 0 || y < 0 || x >= config.width || y >= config.height {
                        misfit.offCanvas += 1
                    } else if water(model.orientation.wavePixel(x, y).i, model.orientation.wavePixel(x, y).j) < 0.5 {
                        misfit.outsideShape += 1
                    }
                }
            }
            if misfit.offCanvas + misfit.outsideShape > 0 { out.append(misfit) }
        }
        return out.sorted { a, b in
            let ca = a.offCanvas + a.outsideShape, cb = b.offCanvas + b.outsideShape
            return ca != cb ? ca > cb : a.text < b.text
        }
    }

    /// One line saying which texts do not fit and how, or nil when all fit.
    public func fitWarning(config: WaveConfig, plan: LoopPlan) -> String? {
        let misfits = misfits(config: config, plan: plan)
        guard let worst = misfits.first else { return nil }
        var parts: [String] = []
        if worst.outsideShape > 0 { parts.append("\(worst.outsideShape) outside the shape") }
        if worst.offCanvas > 0 { parts.append("\(worst.offCanvas) off the canvas") }
        let others = overlays.count > 1 ? "; \(misfits.count) of the \(overlays.count) texts it shows over the loop do not fit" : ""
        return "the label \"\(worst.text)\" does not fit: \(NumberText.count(worst.offCanvas + worst.outsideShape, "pixel")) of its text would be cut off (\(parts.joined(separator: ", ")))\(others); "
            + "use a smaller label.size, a shorter label.text or another label.position"
    }
}
