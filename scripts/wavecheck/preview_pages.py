"""What the preview pages (`wavegen preview`, `wavegen serve`) show of live SVGs and dark twins,
checked in headless Chromium against wavegen's own raster frames. Used by scripts/checks/check-preview
and scripts/checks/check-serve.

    level_slider(chromium, check, binary, work, card, "orb", duration)  # the slider moves the water
    themed_tiles(chromium, check, binary, work, card, "classic", duration)  # each tile's theme

A card is a CSS selector of one output's card on the page. Each tile's inline SVG is shot with its
drift paused at a time of the loop (the Web Animations API) and compared with the raster frame of
that time composited over the tile's background: PSNR at least 35 dB (premultiplied RGBA).
"""
import base64
import io
import json
import os
import subprocess

from PIL import Image

from .frame_metrics import psnr

MINIMUM_PSNR = 35.0
TIMES = 4
BACKGROUNDS = {"light": (0xFF, 0xFF, 0xFF, 255), "dark": (0x12, 0x12, 0x12, 255)}

# Waits until no CSS transition runs in the page (a level easing), at most 10 s.
SETTLED = """new Promise(r => { const end = performance.now() + 10000;
  const tick = () => document.getAnimations().some(a => a instanceof CSSTransition) && performance.now() < end
    ? requestAnimationFrame(tick) : r(true);
  requestAnimationFrame(tick); })"""

# Pauses every CSS animation (the drift) at t ms, then lets two frames render.
PAUSE = """(async (t) => {
  document.getAnimations().filter(a => a instanceof CSSAnimation).forEach(a => { a.pause(); a.currentTime = t; });
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return true;
})"""


def raster_frames(binary, work, preset, name, *args):
    """The raster frames of `preset` rendered with `args`, as RGBA images."""
    folder = os.path.join(work, name)
    if not os.path.isdir(folder):
        subprocess.run([binary, "render", preset, "-o", folder + ".webp", "--frames", folder, "-q", *args], check=True)
    names = sorted(n for n in os.listdir(folder) if n.startswith("frame-"))
    return [Image.open(os.path.join(folder, n)).convert("RGBA") for n in names]


def shoot(chromium, selector):
    """A screenshot of the element `selector` names (its bounding box, device scale 1)."""
    box = json.loads(chromium.evaluate(f"""(() => {{
      const e = document.querySelector({json.dumps(selector)});
      e.scrollIntoView({{block: "center"}});
      const r = e.getBoundingClientRect();
      return JSON.stringify([r.x + scrollX, r.y + scrollY, r.width, r.height]);
    }})()"""))
    shot = chromium.send("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": box[0], "y": box[1], "width": box[2], "height": box[3], "scale": 1}}, session=chromium.session)
    return Image.open(io.BytesIO(base64.b64decode(shot["data"]))).convert("RGBA")


def tile_scores(chromium, selector, frames, duration, background):
    """The tile's inline SVG against `frames` over `background`, at TIMES times over the loop."""
    n = len(frames)
    scores = []
    for k in (j * n // TIMES for j in range(TIMES)):
        chromium.evaluate(f"{PAUSE}({k * duration * 1000 / n!r})")
        shot = shoot(chromium, selector)
        want = Image.alpha_composite(Image.new("RGBA", frames[k].size, background), frames[k])
        scores.append(psnr(shot, want) if shot.size == want.size else 0.0)
    return scores


def level_slider(chromium, check, binary, work, card, preset, duration, theme_twin=True):
    """Moves a live SVG card's level slider to 20 % then 80 %: each time both tiles' wrappers
    carry --level, the drift keeps its start times, and once the level has eased each tile
    shows the raster at that level (its dark theme's on the dark tile when `theme_twin`)."""
    svg = f"{card} .stage.light .svg svg"
    starts = "JSON.stringify(document.getAnimations().filter(a => a instanceof CSSAnimation).map(a => a.startTime))"
    report = []
    for percent in (20, 80):
        level = percent / 100
        chromium.evaluate(f"""document.querySelectorAll({json.dumps(card + ' .svg')}).forEach(w => w.getAnimations({{subtree: true}})
          .filter(a => a instanceof CSSAnimation).forEach(a => a.play())); true""")
        chromium.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))")
        before = chromium.evaluate(starts)
        chromium.evaluate(f"""(() => {{ const s = document.querySelector({json.dumps(card + ' input.level')});
          s.value = {percent}; s.dispatchEvent(new Event("input", {{bubbles: true}})); return true; }})()""")
        levels = chromium.evaluate(f"""[...document.querySelectorAll({json.dumps(card + ' .svg')})]
          .map(w => w.style.getPropertyValue("--level"))""")
        check(levels == [str(level)] * 2, f"{preset} live: the slider at {percent} % sets --level {level} on both wrappers: {levels}")
        moving = chromium.evaluate("document.getAnimations().filter(a => a instanceof CSSTransition).length")
        check(moving >= 1, f"{preset} live: moving the slider eases the level ({moving} transitions run)")
        chromium.evaluate(SETTLED)
        check(chromium.evaluate(starts) == before, f"{preset} live: the drift did not restart when the level moved to {percent} %")
        for theme in ("light", "dark"):
            args = ["--level", str(level)] + (["--theme", "dark"] if theme == "dark" and theme_twin else [])
            frames = raster_frames(binary, work, preset, f"{preset}-{percent}-{theme}", *args)
            got = tile_scores(chromium, f"{card} .stage.{theme} .svg svg", frames, duration, BACKGROUNDS[theme])
            check(min(got) >= MINIMUM_PSNR,
                  f"{preset} live at {percent} % on the {theme} tile: PSNR {min(got):.2f} dB against the raster at level {level}")
            report.append(f"{percent} % {theme} {min(got):.1f}")
    # The water really moved: the picture at 80 % is not the one at 20 %.
    low = raster_frames(binary, work, preset, f"{preset}-20-light", "--level", "0.2")
    got = tile_scores(chromium, svg, low, duration, BACKGROUNDS["light"])
    check(max(got) < MINIMUM_PSNR, f"{preset} live at 80 % differs from the 20 % raster ({max(got):.2f} dB)")
    print(f"{preset} live slider: PSNR min " + ", ".join(report) + " dB", flush=True)


def themed_tiles(chromium, check, binary, work, card, preset, duration):
    """An SVG card of a preset with a dark twin: the light tile shows the light raster, the dark
    tile the `--theme dark` raster (each over its tile's background)."""
    report = []
    for theme in ("light", "dark"):
        frames = raster_frames(binary, work, preset, f"{preset}-{theme}", *(["--theme", "dark"] if theme == "dark" else []))
        got = tile_scores(chromium, f"{card} .stage.{theme} .svg svg", frames, duration, BACKGROUNDS[theme])
        check(min(got) >= MINIMUM_PSNR, f"{preset}.svg on the {theme} tile: PSNR {min(got):.2f} dB against the {theme} raster")
        report.append(f"{theme} {min(got):.1f}")
        if theme == "dark":
            light = raster_frames(binary, work, preset, f"{preset}-light")
            wrong = tile_scores(chromium, f"{card} .stage.dark .svg svg", light, duration, BACKGROUNDS["dark"])
            check(max(wrong) < MINIMUM_PSNR, f"{preset}.svg: the dark tile does not show the light colours ({max(wrong):.2f} dB)")
    print(f"{preset}.svg themed tiles: PSNR min " + ", ".join(report) + " dB", flush=True)
