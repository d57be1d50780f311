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


def gif_frames(path):
    """(start in ms, RGBA image) of every frame of an animated GIF, composited as a player shows it."""
    from PIL import Image
    im = Image.open(path)
    out, t = [], 0
    for i in range(getattr(im, "n_frames", 1)):
        im.seek(i)
        out.append((t, im.convert("RGBA")))
        t += im.info.get("duration", 0) or 0
    return out


def premultiplied_bands(im):
    """The R, G, B bands of an RGBA image multiplied by its alpha, and the alpha band."""
    from PIL import ImageChops
    r, g, b, a = im.split()
    return [ImageChops.multiply(r, a), ImageChops.multiply(g, a), ImageChops.multiply(b, a), a]


def psnr_and_max_error(reference, decoded):
    """PSNR in dB over all frames (premultiplied RGBA; inf when equal) of `decoded` against
    `reference`, both lists of (start in ms, image), each reference frame compared with the frame
    on screen at its start; and the largest difference of any channel of any pixel (0…255)."""
    from PIL import ImageChops, ImageStat
    total, count, worst, j = 0.0, 0, 0, 0
    for start, ref in reference:
        while j + 1 < len(decoded) and decoded[j + 1][0] <= start:
            j += 1
        for x, y in zip(premultiplied_bands(ref), premultiplied_bands(decoded[j][1])):
            difference = ImageChops.difference(x, y)
            total += ImageStat.Stat(difference).sum2[0]
            worst = max(worst, difference.getextrema()[1])
        count += ref.width * ref.height * 4
    mse = total / count
    return (float("inf") if mse == 0 else 10 * math.log10(255 ** 2 / mse)), worst
