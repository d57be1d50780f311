#!/usr/bin/python3
"""Draws presets/assets/boat.png, the sailboat that rides the `boat` preset's swell.

The hull's waterline sits at 85 % of the image height, where a rider's default anchor puts the
water surface. Drawn at 8× and reduced with a Lanczos filter for smooth edges.
"""
import os

from PIL import Image, ImageDraw

W, H = 246, 214          # 2× the 123 × 107 points of the reference look
S = 8                    # supersampling factor


def p(x, y):
    return (x * S, y * S)


img = Image.new("RGBA", (W * S, H * S), (0, 0, 0, 0))
d = ImageDraw.Draw(img)
waterline = 0.85 * H

# Hull: a trapezoid with a darker keel band below the waterline.
hull = [p(18, 150), p(228, 150), p(200, waterline + 18), p(46, waterline + 18)]
d.polygon(hull, fill=(183, 62, 48, 255))
d.polygon([p(30, waterline - 4), p(216, waterline - 4), p(200, waterline + 18), p(46, waterline + 18)], fill=(120, 38, 32, 255))
d.rectangle([p(18, 146), p(228, 154)], fill=(245, 240, 230, 255))
for x in (70, 110, 150, 190):
    d.ellipse([p(x - 6, 160), p(x + 6, 172)], fill=(245, 240, 230, 255))

# Mast and boom.
d.rectangle([p(119, 14), p(125, 148)], fill=(92, 64, 44, 255))
d.rectangle([p(62, 136), p(196, 141)], fill=(92, 64, 44, 255))

# Sails: a large mainsail aft of the mast and a jib forward of it.
d.polygon([p(128, 20), p(128, 132), p(196, 132)], fill=(250, 248, 240, 255))
d.polygon([p(116, 28), p(116, 132), p(58, 132)], fill=(236, 232, 220, 255))
d.line([p(128, 20), p(196, 132)], fill=(200, 196, 186, 255), width=2 * S)

# Pennant.
d.polygon([p(125, 4), p(125, 18), p(150, 11)], fill=(229, 57, 53, 255))

out = img.resize((W, H), Image.LANCZOS)
out.save(os.path.join(os.path.dirname(os.path.abspath(__file__)), "boat.png"), optimize=True)
