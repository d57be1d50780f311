"""Helpers the measuring and checking scripts share: the bundled presets' names, ImageMagick, PSNR
between two frames, and the frames of an animated file with their display times. (Pillow is
imported where it is used, so a script can do without it when it measures no PSNR.)"""
import math
import os
import shutil
import subprocess


def bundled_presets(wavegen):
    """The names `wavegen presets` lists."""
    out = subprocess.run([wavegen, "presets"], capture_output=True, text=True, check=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.strip()]


def differ(a, b):
    """Whether two images of one size differ in any pixel, in any band. (ImageChops.difference(a,
    b).getbbox() cannot tell: on an RGBA or RGBa image getbbox looks at the alpha band only, so it
    sees no difference between two opaque images.)"""
    return a.mode != b.mode or a.size != b.size or a.tobytes() != b.tobytes()


def squared_error(a, b):
    """The sum over every pixel and band of the squared difference between two RGBA images of one
    size, compared premultiplied (the color of a fully transparent pixel does not count)."""
    from PIL import ImageChops
    histogram = ImageChops.difference(a.convert("RGBa"), b.convert("RGBa")).histogram()
    return sum(count * (i % 256) ** 2 for i, count in enumerate(histogram))


def psnr_of(squared, samples):
    """PSNR in dB of a summed squared error over `samples` 8-bit values; inf when it is 0."""
    mse = squared / samples
    return float("inf") if mse == 0 else 10 * math.log10(255 ** 2 / mse)


def psnr(a, b):
    """PSNR in dB between two RGBA images of one size, compared premultiplied (the color of a
    fully transparent pixel does not count); inf when they are equal."""
    return psnr_of(squared_error(a, b), a.width * a.height * 4)


def decoded_frames(path):
    """(start ms, RGBA image) of every frame of an animated GIF or WebP, composited as a player shows it."""
    from PIL import Image
    im = Image.open(path)
    out, t = [], 0
    for i in range(getattr(im, "n_frames", 1)):
        im.seek(i)
        out.append((t, im.convert("RGBA")))
        t += im.info.get("duration", 0) or 0
    return out


def preset_config(wavegen, scene):
    """The preset document of `scene`: a preset file as written, or a bundled one by name."""
    import json
    if os.path.isfile(scene):
        with open(scene) as f:
            return json.load(f)
    return json.loads(subprocess.run([wavegen, "presets", "show", scene], capture_output=True, text=True,
                                     check=True).stdout)


def transparent_background(config):
    """Whether a preset document's background is transparent, or partly (#RRGGBBAA under FF)."""
    background = str(config.get("background", "transparent"))
    return background == "transparent" or (len(background) == 9 and background[-2:].upper() != "FF")


def matte_color(config):
    """A preset document's gif.matte as (r, g, b) (white when it names none)."""
    hexa = (config.get("gif") or {}).get("matte", "#FFFFFF").lstrip("#")
    return tuple(int(hexa[i:i + 2], 16) for i in (0, 2, 4))


def gif_matte(wavegen, scene):
    """The (r, g, b) page a GIF of `scene` (a preset file or bundled name) is made for: its
    gif.matte when its background is transparent (or partly) and its gif.edges are "matte" (the
    default); else None. wavegen's lossy coder may show the matte through such a GIF's edges, so
    it is judged on that page."""
    config = preset_config(wavegen, scene)
    if not transparent_background(config) or (config.get("gif") or {}).get("edges", "matte") != "matte":
        return None
    return matte_color(config)


def on_page(frames, page):
    """(start, image) frames composited over an opaque page color, or as they are when page is None."""
    if page is None:
        return frames
    from PIL import Image
    out = []
    for start, im in frames:
        bg = Image.new("RGBA", im.size, tuple(page) + (255,))
        bg.alpha_composite(im)
        out.append((start, bg))
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


def shown_at(decoded, delays_ms):
    """For frames played with `delays_ms`, the index in `decoded` (from decoded_frames) of the frame
    on screen when each starts (5 ms of slack for rounded delays)."""
    out, t, j = [], 0, 0
    for d in delays_ms:
        while j + 1 < len(decoded) and decoded[j + 1][0] <= t + 5:
            j += 1
        out.append(j)
        t += d
    return out


def find_imagemagick():
    """ImageMagick's convert (or magick), checked by its version banner, or None."""
    for name in ["magick", "/usr/bin/convert", "convert"]:
        path = shutil.which(name)
        if not path:
            continue
        try:
            banner = subprocess.run([path, "-version"], capture_output=True, text=True, timeout=20).stdout
        except (OSError, subprocess.TimeoutExpired):
            continue
        if "ImageMagick" in banner:
            return path
    return None


def delay_args(flag, delays, files, scale=1):
    """`flag D` before a frame whenever its delay changes (img2webp -d, convert -delay)."""
    out, last = [], None
    for d, f in zip(delays, files):
        if d != last:
            out += [flag, str(d * scale)]
            last = d
        out.append(f)
    return out


def largest_difference(a, b):
    """The largest difference of any channel of any pixel (0…255) between two RGBA images of one
    size, compared premultiplied as `psnr` compares them."""
    from PIL import ImageChops
    return max(ImageChops.difference(x, y).getextrema()[1] for x, y in zip(premultiplied_bands(a), premultiplied_bands(b)))
