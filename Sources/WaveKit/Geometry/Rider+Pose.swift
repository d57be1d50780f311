import WavePlatform

extension Rider {
    /// Where the rider's anchor sits on the canvas in one frame, in output pixels, and its turn in
    /// radians (clockwise on screen): on the ridden layer's surface plus `sink`, turned by `tilt` ×
    /// the surface's slope angle. The rasterizer and the vector writers both place it with this.
    public func pose(on surfaces: WaveModel.Surfaces, box: Rect) -> (x: Double, y: Double, angle: Double) {
        let x = box.x + self.x * box.width
        let y = surfaces.surface(layer: layer, atX: x) + sink
        let angle = tilt * atan(surfaces.slope(layer: layer, atX: x))
        return (x, y, angle)
    }
}

extension RiderImage {
    /// The image shrunk to `width` × `height` pixels with an area filter in premultiplied alpha (as
    /// the rasterizer shrinks it), or itself when that is not smaller.
    public func resampled(width: Int, height: Int) -> RiderImage {
        guard width < self.width || height < self.height else { return self }
        let w = min(width, self.width), h = min(height, self.height)
        var rgba: [UInt8] = []
        rgba.reserveCapacity(w * h * 4)
        for c in RiderRaster.resample(self, width: w, height: h) {
            let s = c.straight
            rgba += [s.r, s.g, s.b, s.a]
        }
        return RiderImage(width: w, height: h, rgba: rgba)
    }
}
