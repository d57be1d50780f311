"""Helpers the measuring and checking scripts share: the bundled presets' names and PSNR between
two frames."""
import math
import subprocess

from PIL import ImageChops


def bundled_presets(wavegen):
    """The names `wavegen presets` lists."""
    out = subprocess.run([wavegen, "presets"], capture_output=True, text=True, check=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.strip()]


def differ(a, b):
    """Whether two images of one size differ in any pixel, in any band. (ImageChops.difference(a,
    b).getbbox() cannot tell: on an RGBA or RGBa image getbbox looks at the alpha band only, so it
    sees no difference between two opaque images.)"""
    return a.mode != b.mode or a.size != b.size or a.tobytes() != b.tobytes()


def psnr(a, b):
    """PSNR in dB between two RGBA images of one size, compared premultiplied (the color of a
    fully transparent pixel does not count); inf when they are equal."""
    histogram = ImageChops.difference(a.convert("RGBa"), b.convert("RGBa")).histogram()
    squared = sum(count * (i % 256) ** 2 for i, count in enumerate(histogram))
    mse = squared / (a.width * a.height * 4)
    return float("inf") if mse == 0 else 10 * math.log10(255 ** 2 / mse)
