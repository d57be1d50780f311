"""Decodes animated GIF and WebP files frame by frame in headless Chromium, as a browser shows them.

Chromium is driven over its DevTools pipe (--remote-debugging-pipe: commands on fd 3, answers on
fd 4, each a JSON message ended by a NUL byte), so nothing listens on a port. Each file is decoded
with the page's ImageDecoder (WebCodecs) in a file:// page (a secure context), every frame drawn
to a canvas and read back.

    with ChromiumFrames() as chromium:
        frames = chromium.decode("a.gif")   # [(width, height, rgba bytes, duration in µs)], repeats

Canvas pixels are stored premultiplied, so partly transparent pixels read back may differ from the
file's straight-alpha values by rounding; compare them premultiplied.
"""
import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

BROWSERS = ["/usr/lib/chromium/chromium", "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]

DECODE = """(async (b64, type) => {
  const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
  const decoder = new ImageDecoder({data: bytes, type});
  await decoder.tracks.ready;
  const track = decoder.tracks.selectedTrack;
  const frames = [];
  for (let i = 0; i < track.frameCount; i++) {
    const frame = (await decoder.decode({frameIndex: i})).image;
    const canvas = new OffscreenCanvas(frame.displayWidth, frame.displayHeight);
    const context = canvas.getContext('2d');
    context.drawImage(frame, 0, 0);
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
    let text = '';
    for (let k = 0; k < data.length; k += 8192) text += String.fromCharCode.apply(null, data.subarray(k, k + 8192));
    frames.push({width: canvas.width, height: canvas.height, duration: frame.duration, rgba: btoa(text)});
    frame.close();
  }
  const repeats = track.repetitionCount;
  return JSON.stringify({repeats: Number.isFinite(repeats) ? repeats : -1, frames});
})"""


def find_browser():
    for candidate in BROWSERS:
        if os.access(candidate, os.X_OK):
            return candidate
    return None


class ChromiumFrames:
    def __init__(self, browser=None, timeout=120, flags=()):
        self.browser = browser or find_browser()
        if not self.browser:
            raise RuntimeError("chromium is not installed")
        self.timeout = timeout
        self.folder = tempfile.mkdtemp(prefix="wavegen-chromium-")
        self.page = os.path.join(self.folder, "page.html")
        with open(self.page, "w") as f:
            f.write("<!DOCTYPE html><title>decoder</title>")
        commands_read, commands_write = os.pipe()
        answers_read, answers_write = os.pipe()
        # Move the child's ends above the standard descriptors, then let bash put them on 3 and 4.
        child_read, child_write = os.dup2(commands_read, 100), os.dup2(answers_write, 101)
        os.close(commands_read)
        os.close(answers_write)
        args = [self.browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--remote-debugging-pipe", f"--user-data-dir={os.path.join(self.folder, 'profile')}", *flags, "about:blank"]
        self.process = subprocess.Popen(
            ["/bin/bash", "-c", f'exec "$@" 3<&{child_read} 4>&{child_write} {child_read}<&- {child_write}>&-', "bash"] + args,
            pass_fds=(child_read, child_write), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            # Chromium's own temporary files (org.chromium.Chromium.*) go into the folder removed at close.
            env={**os.environ, "TMPDIR": self.folder})
        os.close(child_read)
        os.close(child_write)
        self.commands = os.fdopen(commands_write, "wb")
        self.answers = answers_read
        self.pending = b""
        self.last_id = 0
        target = self.send("Target.createTarget", {"url": "file://" + self.page})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        deadline = time.time() + 30
        while self.evaluate("typeof ImageDecoder") != "function":
            if time.time() > deadline:
                raise RuntimeError("chromium: the page has no ImageDecoder")
            time.sleep(0.05)

    def send(self, method, params=None, session=None):
        self.last_id += 1
        message = {"id": self.last_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.commands.write(json.dumps(message).encode() + b"\0")
        self.commands.flush()
        deadline = time.time() + self.timeout
        while True:
            while b"\0" not in self.pending:
                remaining = deadline - time.time()
                ready, _, _ = select.select([self.answers], [], [], max(0, remaining))
                if not ready:
                    raise RuntimeError(f"chromium: no answer to {method} in {self.timeout} s")
                chunk = os.read(self.answers, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed its pipe")
                self.pending += chunk
            raw, self.pending = self.pending.split(b"\0", 1)
            answer = json.loads(raw)
            if answer.get("id") == self.last_id:
                if "error" in answer:
                    raise RuntimeError(f"chromium: {method}: {answer['error']}")
                return answer["result"]

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True},
                           session=self.session)
        if "exceptionDetails" in result:
            raise RuntimeError(f"chromium: {result['exceptionDetails'].get('exception', {}).get('description', result['exceptionDetails'])}")
        return result["result"].get("value")

    def decode(self, path):
        """The file's frames as (width, height, straight RGBA bytes, duration in µs), and its repeat
        count (-1: forever)."""
        kind = {"gif": "image/gif", "webp": "image/webp", "png": "image/png"}[path.rsplit(".", 1)[-1]]
        with open(path, "rb") as f:
            data = base64.b64encode(f.read()).decode()
        result = json.loads(self.evaluate(f"{DECODE}({json.dumps(data)}, {json.dumps(kind)})"))
        frames = [(f["width"], f["height"], base64.b64decode(f["rgba"]), f["duration"]) for f in result["frames"]]
        return frames, result["repeats"]

    def close(self):
        try:
            self.commands.close()
        except OSError:
            pass
        self.process.kill()
        self.process.wait()
        os.close(self.answers)
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def premultiplied(width, height, rgba):
    """A Pillow image of straight-RGBA bytes, premultiplied (mode RGBa), for comparing frames whose
    partly transparent pixels went through a premultiplied canvas."""
    from PIL import Image
    return Image.frombytes("RGBA", (width, height), rgba).convert("RGBa")
