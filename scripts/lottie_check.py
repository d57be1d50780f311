"""Checks every bundled preset's Lottie (or the presets named after the binary) against wavegen's own
raster frames with rlottie, Telegram's Lottie renderer (PyPI rlottie-python):

- rlottie renders every frame of the loop at the preset's size, and each matches wavegen's raster
  frame at that frame (premultiplied RGBA) at a PSNR of at least 35 dB;
- frame `op` (the loop's end, which players show as frame 0 again) equals frame 0 (as for every
  bundled preset; a preset whose level ramps one way does not return to frame 0, so this part fails
  for it by design);
- `fr`, `ip`, `op`, `w` and `h` are the planned frame rate, 0, the frame count and the size;
- the PyPI `lottie` package reads the file without warnings and keeps every member it was given
  (a member it drops is one it does not know);
- a second reader draws it too: the `lottie` package exports 8 frames spread over the loop as
  static SVG, headless Chromium shows them, and each matches wavegen's raster frame at least at
  34 dB (Chromium flattens the file's Bézier edges coarsely, which costs about a decibel);
- where the file turns an image (a rider), rlottie samples it at the wrong point (see
  SHORTFALLS); a copy with the image layers moved to undo that must reach the 35 dB goal, which
  shows the rest of the file matches.

Prints one line per preset and a summary; exits 1 on any failure. Run through scripts/check-lottie,
which uses the venv scripts/setup --test makes. With --save DIR, also writes each preset's frames
0 and N/2 as rlottie renders them and as wavegen renders them, for looking at.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import warnings

from PIL import Image
from lottie.objects.animation import Animation
from rlottie_python import LottieAnimation

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chromium_svg import ChromiumSVG  # noqa: E402
from frame_metrics import bundled_presets, psnr  # noqa: E402

MINIMUM_PSNR = 35.0
# The floor for the second reader (the lottie package's SVG export in Chromium).
SECOND_READER_PSNR = 34.0
# Presets that do not reach the goal in rlottie today, with the floor they are held to instead; each
# is printed as a shortfall on every run. boat: rlottie draws a turned image by point sampling (one
# image pixel per pixel, unfiltered) at the wrong point: blend_image_xform in its vdrawhelper.cpp
# maps device point (X + 1, Y) back into the image where a pixel's centre is (X + ½, Y + ½), so
# the boat lands half a pixel left and down of where the file puts it. Its worst frame measures
# 33.28 dB; moved by (+½, −½) to undo the offset, 38.6 dB; the second reader, 46.7 dB.
SHORTFALLS = {"boat": 33.0}
# How far to move an image layer so that rlottie draws it where the file means it.
RLOTTIE_IMAGE_OFFSET = (0.5, -0.5)


def rlottie_frame(animation, k, width, height):
    """Frame k as rlottie draws it: premultiplied BGRA in memory, returned as an RGBa image."""
    buffer = animation.lottie_animation_render(frame_num=k, width=width, height=height)
    bgra = Image.frombuffer("RGBA", (width, height), buffer, "raw", "BGRA", 0, 1)
    return Image.frombytes("RGBa", (width, height), bgra.tobytes())


def with_images_moved(data, dx, dy):
    """A copy of the document with every image layer's position moved by (dx, dy); None when it
    has no image layer."""
    copy = json.loads(json.dumps(data))
    layers = list(copy.get("layers", [])) + [l for a in copy.get("assets", []) for l in a.get("layers", [])]
    moved = False
    for layer in layers:
        if layer.get("ty") != 2:
            continue
        position = layer.setdefault("ks", {}).setdefault("p", {"a": 0, "k": [0, 0]})
        if position.get("a"):
            for key in position["k"]:
                key["s"] = [key["s"][0] + dx, key["s"][1] + dy] + key["s"][2:]
        else:
            position["k"] = [position["k"][0] + dx, position["k"][1] + dy] + position["k"][2:]
        moved = True
    return copy if moved else None


def second_reader_frames(chromium, data, frames, width, height, work, stem):
    """Frames `frames` of the document as the lottie package exports them to SVG and Chromium
    shows them."""
    from lottie.exporters.svg import export_svg
    animation = Animation.load(json.loads(json.dumps(data)))
    out = []
    for k in frames:
        path = os.path.join(work, f"{stem}-second-{k}.svg")
        export_svg(animation, path, frame=k)
        chromium.show_inline(path, width, height)
        out.append(chromium.at(width, height, 0))
    return out


def dropped_members(written, read, path=""):
    """Members of `written` that the lottie package's reading of it (`read`, as it writes it back)
    lacks. Colours may gain an alpha component."""
    out = []
    if isinstance(written, dict):
        if not isinstance(read, dict):
            return [path or "(top)"]
        for key, value in written.items():
            if key not in read:
                out.append(f"{path}.{key}")
            else:
                out += dropped_members(value, read[key], f"{path}.{key}")
    elif isinstance(written, list):
        if not isinstance(read, list) or len(read) < len(written):
            return [path]
        if len(read) > len(written) and not all(isinstance(v, (int, float)) for v in written):
            return [path]
        for i, (a, b) in enumerate(zip(written, read)):
            out += dropped_members(a, b, f"{path}[{i}]")
    return out


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit("usage: scripts/check-lottie path/to/wavegen [--save DIR] [preset ...]")
    save = None
    if "--save" in args:
        i = args.index("--save")
        save = args[i + 1]
        del args[i:i + 2]
        os.makedirs(save, exist_ok=True)
    binary, names = args[0], args[1:] or bundled_presets(args[0])
    failed, passed = 0, 0

    def check(ok, what):
        nonlocal failed, passed
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {what}", flush=True)

    rows = []
    work = tempfile.mkdtemp(prefix="wavegen-lottie-")
    chromium = ChromiumSVG()
    try:
        for name in names:
            plan = json.loads(subprocess.run([binary, "plan", name, "--json"], capture_output=True, text=True, check=True).stdout)
            stem = os.path.splitext(os.path.basename(name))[0]  # a preset file's name, or a bundled preset's
            path = os.path.join(work, f"{stem}.json")
            frames = os.path.join(work, f"{stem}-frames")
            r = subprocess.run([binary, "render", name, "-o", path, "-q"], capture_output=True, text=True)
            check(r.returncode == 0, f"{name}.json: render exit {r.returncode} {r.stderr.strip()}")
            r = subprocess.run([binary, "render", name, "-o", os.path.join(work, f"{stem}.webp"), "--frames", frames, "-q"],
                               capture_output=True, text=True)
            check(r.returncode == 0, f"{name}.webp: render exit {r.returncode} {r.stderr.strip()}")
            if not os.path.exists(path) or not os.path.isdir(frames):
                continue
            with open(path) as f:
                data = json.load(f)
            count = plan["frames"]
            check(plan["timing"]["webp"]["frames"] == count, f"{name}: the raster frames are not the planned frames")
            width, height = Image.open(os.path.join(frames, "frame-0000.png")).size
            check((data["fr"], data["ip"], data["op"], data["w"], data["h"]) == (plan["fps"], 0, count, width, height),
                  f"{name}.json: fr/ip/op/w/h are {data['fr']}/{data['ip']}/{data['op']}/{data['w']}/{data['h']}, "
                  f"planned {plan['fps']}/0/{count}/{width}/{height}")

            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                read = Animation.load(json.loads(json.dumps(data))).to_dict()
            check(not caught, f"{name}.json: the lottie package warns: " + "; ".join(str(w.message) for w in caught))
            dropped = dropped_members(data, read)
            check(not dropped, f"{name}.json: the lottie package drops " + ", ".join(dropped[:8]))

            animation = LottieAnimation.from_file(path)
            # rlottie counts the frames from ip to op inclusive.
            check(animation.lottie_animation_get_totalframe() == count + 1,
                  f"{name}.json: rlottie counts {animation.lottie_animation_get_totalframe()} frames from ip to op, planned {count} + 1")
            # wavegen's raster frames, read once for every comparison below.
            raster = [Image.open(os.path.join(frames, f"frame-{k:04d}.png")).convert("RGBA") for k in range(count)]
            scores = []
            for k in range(count):
                ours = raster[k]
                theirs = rlottie_frame(animation, k, width, height)
                scores.append(psnr(theirs, ours))
                if save and k in (0, count // 2):
                    theirs.convert("RGBA").save(os.path.join(save, f"{stem}-{k:04d}-rlottie.png"))
                    ours.save(os.path.join(save, f"{stem}-{k:04d}-wavegen.png"))
            worst = min(scores)
            at = scores.index(worst)
            floor = SHORTFALLS.get(name, MINIMUM_PSNR)
            check(worst >= floor, f"{name}.json: PSNR {worst:.2f} dB at frame {at} against the raster frames "
                                  f"(at least {floor} required)")
            if worst < MINIMUM_PSNR:
                print(f"SHORTFALL {name}.json: PSNR {worst:.2f} dB, under the {MINIMUM_PSNR} dB goal (held to {floor} dB)", flush=True)
            first, last = rlottie_frame(animation, 0, width, height), rlottie_frame(animation, count, width, height)
            seam = psnr(first, last)
            check(seam >= 50, f"{name}.json: frame {count} (op) differs from frame 0 ({seam:.1f} dB)")
            del animation

            # rlottie with its image sampling offset undone (presets with an image only).
            undone = None
            moved = with_images_moved(data, *RLOTTIE_IMAGE_OFFSET)
            if moved is not None:
                moved_path = os.path.join(work, f"{stem}-moved.json")
                with open(moved_path, "w") as f:
                    json.dump(moved, f)
                animation = LottieAnimation.from_file(moved_path)
                undone = min(psnr(rlottie_frame(animation, k, width, height), raster[k]) for k in range(count))
                del animation
                check(undone >= MINIMUM_PSNR, f"{name}.json: with rlottie's image offset undone, PSNR {undone:.2f} dB "
                                              f"(at least {MINIMUM_PSNR} required)")

            # The second reader, at 8 times spread over the loop.
            times = sorted({k * count // 8 for k in range(8)})
            second = min(psnr(image, raster[k])
                         for k, image in zip(times, second_reader_frames(chromium, data, times, width, height, work, stem)))
            check(second >= SECOND_READER_PSNR, f"{name}.json: the lottie package's SVG in Chromium, PSNR {second:.2f} dB "
                                                f"(at least {SECOND_READER_PSNR} required)")
            rows.append((name, os.path.getsize(path), count, worst, at, sum(scores) / len(scores), seam, undone, second))
    finally:
        chromium.close()
        shutil.rmtree(work, ignore_errors=True)
    print(f"{'preset':<14} {'bytes':>7} {'frames':>6} {'worst PSNR':>12} {'mean PSNR':>10} {'op vs 0':>8} "
          f"{'offset undone':>13} {'2nd reader':>10}")
    for name, size, count, worst, at, mean, seam, undone, second in rows:
        seam_text = "equal" if seam == float("inf") else f"{seam:.1f} dB"
        undone_text = "-" if undone is None else f"{undone:.2f} dB"
        print(f"{name:<14} {size:>7} {count:>6} {worst:>7.2f} dB @{at:<3} {mean:>7.2f} dB {seam_text:>8} "
              f"{undone_text:>13} {second:>7.2f} dB")
    print(f"check-lottie: {passed} passed, {failed} failed", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
