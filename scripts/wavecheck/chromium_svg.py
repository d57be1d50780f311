"""Shows SVG files in headless Chromium and screenshots them, inline in a page with every animation
paused at a chosen time (the Web Animations API), or as an <img> playing on its own.

    with ChromiumSVG() as chromium:
        image = chromium.inline("a.svg", 128, 128, 0.5)    # Pillow RGBA image at t = 0.5 s
        image = chromium.as_image("a.svg", 128, 128)       # as an <img>, whatever it shows now
        image = chromium.as_background("a.svg", 128, 128)  # as a CSS background-image, playing

The page is transparent (no default white), at device scale 1, so pixels compare one to one with
wavegen's raster frames.
"""
import base64
import io
import json

from PIL import Image

from .chromium_frames import ChromiumFrames

PAUSE = """(async (t) => {
  document.getAnimations().forEach(a => { a.pause(); a.currentTime = t; });
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return document.getAnimations().length;
})"""

SHOW = """(async (html) => {
  document.body.innerHTML = html;
  for (const img of document.images) await img.decode();
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return true;
})"""


class ChromiumSVG(ChromiumFrames):
    def __init__(self, browser=None, timeout=120, flags=()):
        """`flags`: more Chromium switches, such as --force-dark-mode."""
        super().__init__(browser, timeout, flags)
        self.evaluate("document.documentElement.style.cssText = 'margin:0;background:transparent';"
                      "document.body.style.cssText = 'margin:0;background:transparent'; true")
        self.send("Emulation.setDefaultBackgroundColorOverride", {"color": {"r": 0, "g": 0, "b": 0, "a": 0}},
                  session=self.session)

    def _viewport(self, width, height):
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=self.session)

    def _screenshot(self, width, height):
        shot = self.send("Page.captureScreenshot", {
            "format": "png", "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}},
            session=self.session)
        return Image.open(io.BytesIO(base64.b64decode(shot["data"]))).convert("RGBA")

    def show_inline(self, path, width, height, attributes="", style=""):
        """Puts the SVG's markup in the page, in a <div> with `attributes` (such as
        'data-theme="dark"') and `style` (such as '--level:.3'); returns the number of animations
        it runs."""
        self._viewport(width, height)
        with open(path) as f:
            markup = f.read()
        html = f'<div {attributes} style="line-height:0;{style}">' + markup + '</div>'
        self.evaluate(f"{SHOW}({json.dumps(html)})")
        return self.evaluate("document.getAnimations().length")

    def at(self, width, height, seconds):
        """The inline SVG with every animation paused at `seconds`."""
        self.evaluate(f"{PAUSE}({seconds * 1000!r})")
        return self._screenshot(width, height)

    def as_image(self, path, width, height, wait=0.0):
        """The SVG shown as an <img src> (a data URI), after `wait` seconds of playing."""
        self._viewport(width, height)
        with open(path, "rb") as f:
            uri = "data:image/svg+xml;base64," + base64.b64encode(f.read()).decode()
        html = f'<img src="{uri}" width="{width}" height="{height}" style="display:block">'
        self.evaluate(f"{SHOW}({json.dumps(html)})")
        return self.playing(width, height, wait)

    def image_at(self, path, width, height, seconds):
        """The SVG as an <img src> (a data URI) showing time `seconds`: a rule added to its style
        pauses every animation that far in (an image's animations are out of the page's reach)."""
        self._viewport(width, height)
        with open(path) as f:
            markup = f.read()
        rule = f"*{{animation-play-state:paused!important;animation-delay:{-seconds * 1000!r}ms!important}}"
        markup = markup.replace("<style>", "<style>" + rule, 1)
        uri = "data:image/svg+xml;base64," + base64.b64encode(markup.encode()).decode()
        html = f'<img src="{uri}" width="{width}" height="{height}" style="display:block">'
        self.evaluate(f"{SHOW}({json.dumps(html)})")
        return self._screenshot(width, height)

    def set_style(self, style):
        """Sets the style of the <div> holding an inline SVG (such as '--level:.8') while it plays."""
        self.evaluate(f"document.body.firstElementChild.style.cssText = {json.dumps('line-height:0;' + style)}; true")

    def inline_playing(self, path, width, height, wait=0.0):
        """The SVG's markup in the page, its animations running on their own, after `wait` seconds."""
        self.show_inline(path, width, height)
        return self.playing(width, height, wait)

    def as_background(self, path, width, height, wait=0.0):
        """The SVG as a CSS background-image (a data URI) of a box its size, after `wait` seconds."""
        self._viewport(width, height)
        with open(path, "rb") as f:
            uri = "data:image/svg+xml;base64," + base64.b64encode(f.read()).decode()
        html = (f'<div style="width:{width}px;height:{height}px;background:url({uri}) 0 0/{width}px {height}px no-repeat">'
                '</div>')
        self.evaluate(f"{SHOW}({json.dumps(html)})")
        return self.playing(width, height, wait)

    def playing(self, width, height, wait):
        """A screenshot after `wait` more seconds of whatever the page plays, frames rendered meanwhile."""
        self.evaluate(f"""new Promise(r => {{
          const end = performance.now() + {int(wait * 1000)};
          const tick = () => performance.now() >= end ? r(true) : requestAnimationFrame(tick);
          requestAnimationFrame(tick);
        }})""")
        return self._screenshot(width, height)
