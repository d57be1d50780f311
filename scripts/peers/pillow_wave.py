#!/usr/bin/python3
"""A short Pillow renderer of a wavegen preset, written as a peer for scripts/bench/compare-peers.

It draws every layer as a polygon at SS x the output size (supersampling), clips the water to the
shape, paints the border ring and the rider, box-filters down, quantizes each frame and saves an
animated GIF with Pillow. A label is drawn with Pillow's FreeType fonts, split in two colors along the
front layer's surface. It follows the preset format's geometry (docs/presets.md) closely enough
to draw the same scene, but it is a straightforward renderer, not a copy of wavegen's rasterizer:
no exact coverage, no scene-derived palette, no frame optimisation beyond what Pillow does.

usage: pillow_wave.py PRESET.json PLAN.json OUT.gif [--base DIR] [--ss N]
  PRESET.json  the preset (as `wavegen presets show NAME` prints it, or a preset file)
  PLAN.json    `wavegen plan PRESET --json` (frame count, cycles and GIF delays)
  --base DIR   folder that relative rider image paths start from (default: the preset's folder)
  --ss N       supersampling factor per axis (default 4)
"""
import argparse
import json
import math
import os
import re
import sys

from PIL import Image, ImageChops, ImageDraw, ImageFont


def color(text):
    """(r, g, b, a) with a in 0…255, from the preset's color forms."""
    t = text.strip().lower()
    if t == "transparent":
        return (0, 0, 0, 0)
    if t.startswith("#"):
        h = t[1:]
        if len(h) == 3:
            h = "".join(c * 2 for c in h)
        v = [int(h[i:i + 2], 16) for i in range(0, len(h), 2)]
        return tuple(v) if len(v) == 4 else (v[0], v[1], v[2], 255)
    m = re.match(r"rgba?\(([^)]*)\)", t)
    if m:
        parts = [p.strip() for p in m.group(1).split(",")]
        r, g, b = (int(p) for p in parts[:3])
        a = round(float(parts[3]) * 255) if len(parts) == 4 else 255
        return (r, g, b, a)
    raise ValueError("unsupported color " + text)


def length(value, reference, scale, default):
    if value is None:
        value = default
    if isinstance(value, str) and value.endswith("px"):
        return float(value[:-2]) * scale
    return float(value) * reference


def shrink_triangle(tri, d):
    """Triangle shrunk by distance d, scaled about its incenter."""
    (ax, ay), (bx, by), (cx, cy) = tri
    a = math.dist((bx, by), (cx, cy))
    b = math.dist((cx, cy), (ax, ay))
    c = math.dist((ax, ay), (bx, by))
    p = a + b + c
    ix, iy = (a * ax + b * bx + c * cx) / p, (a * ay + b * by + c * cy) / p
    area = abs((bx - ax) * (cy - ay) - (cx - ax) * (by - ay)) / 2
    r = area / (p / 2)
    k = max(0.0, (r - d) / r)
    return [(ix + (x - ix) * k, iy + (y - iy) * k) for x, y in tri]


def shape_mask(size, shape, box, radius, inset, ss):
    """An L mask at SS x of the shape in `box` shrunk by `inset` (output pixels)."""
    m = Image.new("L", size, 0)
    d = ImageDraw.Draw(m)
    x, y, w, h = box
    if shape == "triangle":
        tri = [(x + w / 2, y), (x + w, y + h), (x, y + h)]
        d.polygon([(px * ss, py * ss) for px, py in shrink_triangle(tri, inset)], fill=255)
        return m
    x0, y0, x1, y1 = x + inset, y + inset, x + w - inset, y + h - inset
    if x1 <= x0 or y1 <= y0:
        return m
    rect = [x0 * ss, y0 * ss, x1 * ss - 1, y1 * ss - 1]
    if shape == "circle":
        d.ellipse(rect, fill=255)
    elif shape == "rounded":
        d.rounded_rectangle(rect, radius=max(0.0, radius - inset) * ss, fill=255)
    else:
        d.rectangle(rect, fill=255)
    return m


def main(argv):
    ap = argparse.ArgumentParser(description="Render a wavegen preset with Pillow (a comparison peer).")
    ap.add_argument("preset")
    ap.add_argument("plan")
    ap.add_argument("out")
    ap.add_argument("--base", help="folder for relative rider image paths (default: the preset's folder)")
    ap.add_argument("--ss", type=int, default=4, help="supersampling factor per axis (default 4)")
    a = ap.parse_args(argv)
    preset_path, plan_path, out, ss = a.preset, a.plan, a.out, a.ss
    base = a.base or os.path.dirname(os.path.abspath(preset_path))
    with open(preset_path) as f:
        p = json.load(f)
    with open(plan_path) as f:
        plan = json.load(f)

    scale = float(p.get("scale", 1))
    sw, sh = p.get("size", [128, 128])
    W, H = round(sw * scale), round(sh * scale)
    bg = color(p.get("background", "transparent"))
    shape = p.get("shape", "rect")
    inset = length(p.get("inset"), min(W, H), scale, 0)
    ox, oy, ow, oh = inset, inset, W - 2 * inset, H - 2 * inset
    if shape == "circle":
        side = min(ow, oh)
        ox, oy, ow, oh = ox + (ow - side) / 2, oy + (oh - side) / 2, side, side
    short = min(ow, oh)
    radius = min(length(p.get("cornerRadius"), short, scale, 0.2), ow / 2, oh / 2) if shape == "rounded" else 0
    border = p.get("border")
    bw = length(border.get("width"), short, scale, 0.04) if border else 0
    gap = length(border.get("gap"), short, scale, 0) if border else 0
    d = bw + gap
    if shape == "triangle":
        tri = shrink_triangle([(ox + ow / 2, oy), (ox + ow, oy + oh), (ox, oy + oh)], d)
        xs, ys = [q[0] for q in tri], [q[1] for q in tri]
        box = (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
    else:
        box = (ox + d, oy + d, ow - 2 * d, oh - 2 * d)
    bx, by, bwid, bhgt = box

    level = p.get("level", 0.5)
    layers = []
    for i, l in enumerate(p["layers"]):
        c = color(l["color"])
        a = round(c[3] * float(l.get("opacity", 1)))
        layers.append({
            "color": (c[0], c[1], c[2], a),
            "amplitude": length(l.get("amplitude"), bhgt, scale, 0.05),
            "wavelength": length(l.get("wavelength"), bwid, scale, 1),
            "phase": float(l.get("phase", 0)),
            "offset": length(l.get("offset"), bhgt, scale, 0),
            "cycles": plan["layers"][i]["cycles"],
        })

    rider = p.get("rider")
    rider_img = None
    if rider:
        img = Image.open(os.path.join(base, rider["image"])).convert("RGBA")
        rw = length(rider.get("width"), bwid, scale, 0.3)
        rh = rw * img.height / img.width
        rider_img = img.resize((max(1, round(rw * ss)), max(1, round(rh * ss))), Image.Resampling.BOX)
        anchor = rider.get("anchor", [0.5, 0.85])
        rlayer = rider.get("layer", -1) % len(layers)
        rx = bx + float(rider.get("x", 0.5)) * bwid
        sink = length(rider.get("sink"), bhgt, scale, 0)
        tilt = float(rider.get("tilt", 1))

    big = (W * ss, H * ss)

    # The label: its glyph (and stroke) masks once, placed in the box; colored per frame.
    label = p.get("label")
    label_masks = None
    if label:
        nominal = level if isinstance(level, (int, float)) else level.get("to", level.get("base", 0.5))
        text = label.get("text", "{percent}%").replace("{percent}", str(round(nominal * 100))) \
            .replace("{level}", "%.2f" % nominal)
        font = ImageFont.truetype(label.get("font", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
                                  max(1, round(length(label.get("size"), bhgt, scale, 0.25) * ss)))
        stroke = label.get("stroke")
        sw = round(length(stroke.get("width"), bhgt, scale, 0.02) * ss) if stroke else 0
        x0, y0, x1, y1 = font.getbbox(text, stroke_width=sw)
        cx = (bx + bwid / 2) * ss - (x0 + x1) / 2
        pos = label.get("position", "center")
        if pos == "top":
            cy = (by + 0.12 * bhgt) * ss - y0
        elif pos == "bottom":
            cy = (by + 0.88 * bhgt) * ss - y1
        else:
            cy = (by + bhgt / 2) * ss - (y0 + y1) / 2
        fill_mask = Image.new("L", big, 0)
        ImageDraw.Draw(fill_mask).text((cx, cy), text, font=font, fill=255)
        stroke_mask = None
        if stroke:
            stroke_mask = Image.new("L", big, 0)
            ImageDraw.Draw(stroke_mask).text((cx, cy), text, font=font, fill=255, stroke_width=sw, stroke_fill=255)
        label_masks = (fill_mask, stroke_mask, color(label.get("color", "#1E88E5")),
                       color(label.get("colorOnWater", "#FFFFFF")), color(stroke["color"]) if stroke else None)

    def solid(c, mask):
        """A layer of color c whose alpha is c's alpha times mask."""
        im = Image.new("RGBA", big, c[:3] + (0,))
        im.putalpha(mask if c[3] == 255 else mask.point(lambda v: v * c[3] // 255))
        return im
    clip = shape_mask(big, shape, (ox, oy, ow, oh), radius, d, ss)
    ring = None
    if border:
        outer = shape_mask(big, shape, (ox, oy, ow, oh), radius, 0, ss)
        inner = shape_mask(big, shape, (ox, oy, ow, oh), radius, bw, ss)
        ring_mask = ImageChops.subtract(outer, inner)
        bc = color(border["color"])
        ring = Image.new("RGBA", big, bc[:3] + (0,))
        ring.putalpha(ring_mask.point(lambda v: v * bc[3] // 255))
    background = Image.new("RGBA", big, bg)

    timing = plan["timing"]["gif"]
    count = timing["frames"]

    def level_at(k):
        if isinstance(level, (int, float)):
            return float(level)
        if "base" in level or "tide" in level:
            return level.get("base", 0.5) + level.get("tide", 0.1) * math.sin(2 * math.pi * k / count)
        lo, hi = level.get("from", 0), level.get("to", 1)
        if level.get("pingpong", False):
            u = k / count
            q = 2 * u if u < 0.5 else 2 - 2 * u
        else:
            q = k / (count - 1) if count > 1 else 1
        if level.get("ease", "linear") == "easeInOut":
            q = 0.5 - 0.5 * math.cos(math.pi * q)
        return lo + (hi - lo) * q

    frames = []
    for k in range(count):
        u = k / count
        y0 = by + bhgt * (1 - level_at(k))

        def surface(l, x):
            turns = (x - bx) / l["wavelength"] + l["phase"] - l["cycles"] * u
            return y0 + l["offset"] - l["amplitude"] * math.sin(2 * math.pi * turns)

        water = Image.new("RGBA", big, (0, 0, 0, 0))
        front = None
        for i, l in enumerate(layers):
            pts = [(X, surface(l, X / ss) * ss) for X in range(int(bx * ss), int((bx + bwid) * ss) + ss, ss)]
            pts += [(pts[-1][0], (by + bhgt + 1) * ss), (pts[0][0], (by + bhgt + 1) * ss)]
            if label_masks and i == len(layers) - 1:
                front = Image.new("L", big, 0)
                ImageDraw.Draw(front).polygon(pts, fill=255)
            if l["color"][3] == 255:
                ImageDraw.Draw(water).polygon(pts, fill=l["color"])
            else:
                layer = Image.new("RGBA", big, (0, 0, 0, 0))
                ImageDraw.Draw(layer).polygon(pts, fill=l["color"])
                water.alpha_composite(layer)
            if rider_img is not None and i == rlayer:
                l0 = layers[rlayer]
                ry = surface(l0, rx) + sink
                turns = (rx - bx) / l0["wavelength"] + l0["phase"] - l0["cycles"] * u
                slope = -l0["amplitude"] * 2 * math.pi / l0["wavelength"] * math.cos(2 * math.pi * turns)
                angle = tilt * math.atan(slope)
                rot = rider_img.rotate(-math.degrees(angle), resample=Image.Resampling.BICUBIC, expand=True)
                dx = anchor[0] * rider_img.width - rider_img.width / 2
                dy = anchor[1] * rider_img.height - rider_img.height / 2
                c, s = math.cos(angle), math.sin(angle)
                ax, ay = rot.width / 2 + dx * c - dy * s, rot.height / 2 + dx * s + dy * c
                placed = Image.new("RGBA", big, (0, 0, 0, 0))
                placed.paste(rot, (round(rx * ss - ax), round(ry * ss - ay)))
                water.alpha_composite(placed)
        if label_masks:
            fill_mask, stroke_mask, above, below, stroke_color = label_masks
            if stroke_mask is not None:
                water.alpha_composite(solid(stroke_color, stroke_mask))
            water.alpha_composite(solid(above, ImageChops.multiply(fill_mask, ImageChops.invert(front))))
            water.alpha_composite(solid(below, ImageChops.multiply(fill_mask, front)))
        water.putalpha(ImageChops.multiply(water.getchannel("A"), clip))
        frame = Image.alpha_composite(background, water)
        if ring is not None:
            frame.alpha_composite(ring)
        frames.append(frame.reduce(ss))

    # GIF: Pillow quantizes each frame itself (an adaptive palette per frame). Over a transparent
    # background a GIF pixel is opaque or transparent; partly covered pixels follow the preset's
    # gif.edges like wavegen: "matte" (default) blends them with gif.matte (white) and makes them
    # opaque, "cut" and "dither" (not dithered here) keep those of 50 % alpha or more.
    transparent = bg[3] < 255
    gif = p.get("gif", {})
    matte = color(gif.get("matte", "#FFFFFF"))[:3]
    threshold = 1 if gif.get("edges", "matte") == "matte" else 128
    out_frames = []
    for f in frames:
        if not transparent:
            out_frames.append(f.convert("RGB"))
            continue
        alpha = f.getchannel("A")
        rgba = Image.new("RGBA", f.size, matte + (255,))
        rgba.paste(f.convert("RGB"), mask=alpha)
        rgba.putalpha(alpha.point(lambda v: 0 if v < threshold else 255))
        out_frames.append(rgba)
    save = dict(save_all=True, append_images=out_frames[1:], loop=0,
                duration=[10 * d for d in timing["delays"]])
    if transparent:
        save.update(disposal=2)
    out_frames[0].save(out, **save)

if __name__ == "__main__":
    main(sys.argv[1:])
