"""Writes every frame of an animation as this Python's Pillow shows it, as RGBA PNGs named by a
printf pattern with the frame number (scripts/checks/check-decoders runs it with the Pillow 13 of the venv
scripts/setup --test makes, beside Debian's 9.4).

Usage: python scripts/wavecheck/pillow_frames.py ANIMATION OUT-PATTERN   (e.g. frames/f-%04d.png)

It imports nothing from this package, so that any Python with Pillow can run it as a file.
"""
import sys

from PIL import Image


def main():
    im = Image.open(sys.argv[1])
    for i in range(im.n_frames):
        im.seek(i)
        im.convert("RGBA").save(sys.argv[2] % i)


if __name__ == "__main__":
    main()
