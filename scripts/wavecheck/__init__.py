"""wavecheck: the Python helpers wavegen's check and benchmark scripts share.

    chromium_frames  headless Chromium over its DevTools pipe: screenshots, image decoding
    chromium_svg     an SVG in Chromium, inline or as <img>, paused at a chosen time
    frame_metrics    bundled preset names, PSNR, frame differences, an animated file's frames
    preview_pages    the preview pages' level slider and theme tiles against the raster
    lottie_check     a Lottie's frames in rlottie against the raster (run by scripts/checks/check-lottie)
    pillow_frames    an animated file's frames as a given Python's Pillow decodes them (run as a file)

The scripts in scripts/checks, scripts/bench and scripts/dev import it as `wavecheck`: each of those
folders holds a link `wavecheck -> ../wavecheck`, and Python puts a script's own folder first on its
import path, so a script runs from anywhere without setting PYTHONPATH. Run a module of it with
`PYTHONPATH=scripts python3 -m wavecheck.MODULE` from the repository.
"""
import os

# The repository's root folder (the package lives in ROOT/scripts/wavecheck; links resolved).
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
