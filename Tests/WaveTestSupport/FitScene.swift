/// A small scene for size-budget tests: 40 × 24, 20 frames at 20 fps, two layers — edges to smooth,
/// a loop to thin, and small enough to encode every combination of the quality knobs.
public let fitScenePreset = """
    {"size": [40, 24], "fps": 20, "background": "#FFFFFF", "level": 0.5,
     "layers": [{"color": "#1E88E5", "amplitude": 0.12, "wavelength": 1, "speed": 1},
                {"color": "#0D47A1", "opacity": 0.6, "amplitude": 0.08, "wavelength": 0.5, "speed": -1}]}
    """

/// The same scene over a 2 s loop, 100 frames at 50 fps: long enough for the size fit's sampled
/// search (`SizeFit.Sample`: windows starting on frames every frame-rate divisor divides).
public let fitSceneLongPreset = """
    {"size": [40, 24], "fps": 50, "background": "#FFFFFF", "level": 0.5,
     "layers": [{"color": "#1E88E5", "amplitude": 0.12, "wavelength": 1, "speed": 0.5},
                {"color": "#0D47A1", "opacity": 0.6, "amplitude": 0.08, "wavelength": 0.5, "speed": -0.5}]}
    """
