/// The live preview page: self-contained HTML, CSS and JavaScript (nothing loaded from elsewhere).
/// It listens to `/events` and draws what each event's state lists: every output on a light and a
/// dark tile, with play and pause, frame stepping, zoom with crisp pixels and the output's numbers.
/// Each tile shows the file as an image at once; then raster frames are decoded with the browser's
/// ImageDecoder (WebCodecs), so any single frame can be shown, and SVG is placed inline (in a
/// shadow root, so two copies cannot share ids) and paused or stepped through the Web Animations
/// API. A card whose file did not change is left playing.
enum LivePage {
    /// The page's Content-Security-Policy: inline script and style, images and fetches from this
    /// server (and the data: images inside an SVG), nothing else.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; form-action 'none'"

    static let html = PreviewPage.document(style: """
        header { display: flex; align-items: baseline; gap: 14px; flex-wrap: wrap; }
        h1 { font-size: 22px; margin: 0; }
        #status { color: #455A64; }
        #status.down { color: #C62828; font-weight: 600; }
        .card { max-width: 100%; box-sizing: border-box; }
        .controls { display: flex; align-items: center; gap: 6px; margin-bottom: 8px; font-size: 12px; }
        .controls button, .controls select { font: inherit; padding: 2px 8px; }
        .controls .frame { color: #455A64; font-variant-numeric: tabular-nums; margin-left: 4px; min-width: 10.5em; }
        .stages { overflow: auto; }
        .stage canvas, .stage img, .stage .svg { display: block; image-rendering: pixelated; }
        pre.errors { white-space: pre-wrap; font-size: 12px; color: #B71C1C; background: #FFEBEE; border: 1px solid #E53935; border-radius: 6px; padding: 8px 10px; margin: 8px 0; max-width: 900px; }
        .warning { color: #8D6E00; margin: 4px 0; font-size: 13px; }
        .files { color: #78909C; font-size: 12px; margin: 8px 0 0; word-break: break-all; }
        """, body: """
        <header><h1>wavegen preview</h1><span id="status">connecting…</span></header>
        <main id="groups"><p>Rendering…</p></main>
        <script>
        "use strict";
        const groupsElement = document.getElementById("groups");
        const statusElement = document.getElementById("status");
        const cards = new Map();
        const settings = new Map();
        const zooms = [1, 2, 3, 4, 6, 8, 12, 16];

        function make(tag, props, ...children) {
          const e = document.createElement(tag);
          for (const [k, v] of Object.entries(props || {})) {
            if (k === "class") e.className = v; else e.setAttribute(k, v);
          }
          e.append(...children.filter(c => c !== null && c !== undefined));
          return e;
        }

        function say(text, down) {
          statusElement.textContent = text;
          statusElement.className = down ? "down" : "";
        }

        // Until a player is ready, each tile shows the file as an <img>, playing.
        class Player {
          constructor(output, stages, label) {
            this.output = output;
            this.label = label;
            this.index = 0;
            this.scale = 1;
            this.shown = stages.map(stage => {
              const img = make("img", {src: output.url, alt: output.path});
              stage.prepend(img);
              return img;
            });
          }
          // Puts what make() returns in place of each tile's current element.
          replace(make) {
            this.shown = this.shown.map(old => { const e = make(); old.replaceWith(e); return e; });
            this.zoom(this.scale);
          }
          zoom(z) {
            this.scale = z;
            for (const e of this.shown) {
              e.style.width = this.output.shownWidth * z + "px";
              e.style.height = this.output.shownHeight * z + "px";
            }
          }
        }

        // Frames decoded with ImageDecoder, drawn to one canvas per tile.
        class RasterPlayer extends Player {
          constructor(output, stages, label) {
            super(output, stages, label);
            this.frames = [];
            this.epoch = 0;
          }
          async start(setting) {
            this.zoom(setting.zoom);
            try {
              if (!("ImageDecoder" in window) || !(await ImageDecoder.isTypeSupported(this.output.mimeType))) {
                this.label.textContent = `${this.output.frames} frames (stepping needs ImageDecoder)`;
                return;
              }
              const data = await (await fetch(this.output.url)).arrayBuffer();
              if (this.stopped) return;
              this.decoder = new ImageDecoder({data, type: this.output.mimeType});
              await this.decoder.tracks.ready;
              await this.decoder.completed;
              this.count = this.decoder.tracks.selectedTrack.frameCount;
              this.keep = this.output.width * this.output.height * this.count <= 16e6;
              await this.frame(0);
              if (this.stopped) return;
              this.replace(() => make("canvas", {width: this.output.width, height: this.output.height}));
              await this.show(0, this.epoch);
              if (setting.playing) this.play();
            } catch (error) {
              this.label.textContent = "cannot decode: " + error;
            }
          }
          async frame(k) {
            if (this.frames[k]) return this.frames[k];
            const result = await this.decoder.decode({frameIndex: k});
            const frame = {bitmap: await createImageBitmap(result.image), ms: result.image.duration / 1000};
            result.image.close();
            if (this.keep) this.frames[k] = frame;
            return frame;
          }
          async show(k, epoch) {
            const frame = await this.frame(k);
            if (this.stopped || epoch !== this.epoch) return frame;
            this.index = k;
            for (const canvas of this.shown) {
              const context = canvas.getContext("2d");
              context.clearRect(0, 0, canvas.width, canvas.height);
              context.drawImage(frame.bitmap, 0, 0);
            }
            if (!this.keep) frame.bitmap.close();
            this.label.textContent = `frame ${k + 1}/${this.count} · ${Math.round(frame.ms)} ms`;
            return frame;
          }
          play() {
            if (!this.decoder) return;
            const epoch = ++this.epoch;
            let due = performance.now();
            const tick = async () => {
              if (epoch !== this.epoch) return;
              const frame = await this.show((this.index + 1) % this.count, epoch);
              due += Math.max(10, frame.ms);
              this.timer = setTimeout(tick, Math.max(0, due - performance.now()));
            };
            this.show(this.index, epoch).then(frame => {
              due += Math.max(10, frame.ms);
              this.timer = setTimeout(tick, Math.max(0, due - performance.now()));
            });
          }
          pause() { this.epoch++; clearTimeout(this.timer); }
          step(d) {
            if (!this.decoder) return;
            this.pause();
            // Counted at once, so quick clicks each move one frame while the frame decodes.
            this.index = (this.index + d + this.count) % this.count;
            this.show(this.index, this.epoch);
          }
          stop() {
            this.stopped = true;
            this.pause();
            if (this.decoder) this.decoder.close();
            for (const frame of this.frames) if (frame) frame.bitmap.close();
          }
        }

        // An SVG placed inline in each tile (in a shadow root, so the two copies' ids cannot
        // clash), its CSS animations driven through the Web Animations API.
        class VectorPlayer extends Player {
          constructor(output, stages, label) {
            super(output, stages, label);
            this.count = output.frames;
            this.period = output.duration * 1000;
            this.svgs = [];
          }
          async start(setting) {
            this.zoom(setting.zoom);
            try {
              const text = await (await fetch(this.output.url)).text();
              if (this.stopped) return;
              const root = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
              if (root.localName !== "svg") throw new Error("not an SVG document");
              this.svgs = [];
              this.replace(() => {
                const host = make("div", {class: "svg"});
                const svg = document.importNode(root, true);
                svg.style.display = "block";
                svg.style.width = svg.style.height = "100%";
                host.attachShadow({mode: "open"}).append(svg);
                this.svgs.push(svg);
                return host;
              });
              if (setting.playing) this.play(); else this.show(0);
            } catch (error) {
              this.label.textContent = "cannot show: " + error;
            }
          }
          animations() { return this.svgs.flatMap(svg => svg.getAnimations({subtree: true})); }
          play() {
            this.playing = true;
            for (const a of this.animations()) a.play();
            const update = () => {
              if (!this.playing || this.stopped) return;
              const a = this.animations()[0];
              const t = a ? Number(a.currentTime) % this.period : 0;
              this.index = Math.min(this.count - 1, Math.floor(t / this.period * this.count));
              this.describe();
              requestAnimationFrame(update);
            };
            update();
          }
          pause() {
            this.playing = false;
            for (const a of this.animations()) a.pause();
          }
          show(k) {
            this.index = k;
            const t = k * this.period / this.count;
            for (const a of this.animations()) { a.pause(); a.currentTime = t; }
            this.describe();
          }
          step(d) {
            if (!this.svgs.length) return;
            this.pause();
            this.show((this.index + d + this.count) % this.count);
          }
          describe() {
            this.label.textContent = `frame ${this.index + 1}/${this.count} · ${(this.index * this.period / this.count / 1000).toFixed(3)} s`;
          }
          stop() { this.stopped = true; this.playing = false; }
        }

        // Small animations start magnified, to about 96 px wide.
        function defaultZoom(output) {
          return zooms.filter(z => z === 1 || output.shownWidth * z <= 96).pop();
        }

        function card(output) {
          const key = JSON.stringify(output);
          const old = cards.get(output.id);
          if (old && old.key === key) return old.element;
          if (old && old.player) old.player.stop();
          const setting = settings.get(output.id) || {zoom: defaultZoom(output), playing: true};
          settings.set(output.id, setting);
          const element = make("figure", {class: output.url ? "card" : "card failed", "data-output": output.id, "data-file": output.url || ""},
                               make("figcaption", {}, output.path));
          let player = null;
          const facts = () => make("dl", {}, ...output.facts.flatMap(f =>
            [make("dt", {}, f.label), make("dd", {}, f.text, f.alert ? make("span", {class: "over"}, " " + f.alert) : null)]));
          if (output.url && !output.mimeType.startsWith("image/")) {
            // A format no browser shows as an image: its numbers and the file.
            element.append(make("p", {class: "warning"}, "A browser does not show " + output.mimeType + "; ",
                                make("a", {href: output.url, download: output.path.split("/").pop()}, "save the file")), facts());
          } else if (output.url) {
            const label = make("span", {class: "frame"}, "loading…");
            const play = make("button", {type: "button", class: "play", title: "Play or pause"}, setting.playing ? "pause" : "play");
            const previous = make("button", {type: "button", class: "previous", title: "Previous frame"}, "◀");
            const next = make("button", {type: "button", class: "next", title: "Next frame"}, "▶");
            const zoom = make("select", {class: "zoom", title: "Zoom"},
                              ...zooms.map(z => make("option", z === setting.zoom ? {value: z, selected: ""} : {value: z}, z + "×")));
            const stages = ["light", "dark"].map(theme => make("div", {class: "stage " + theme}, make("span", {}, theme)));
            player = output.mimeType === "image/svg+xml" ? new VectorPlayer(output, stages, label) : new RasterPlayer(output, stages, label);
            const paused = () => { setting.playing = false; play.textContent = "play"; };
            play.addEventListener("click", () => {
              setting.playing = !setting.playing;
              play.textContent = setting.playing ? "pause" : "play";
              if (setting.playing) player.play(); else player.pause();
            });
            previous.addEventListener("click", () => { paused(); player.step(-1); });
            next.addEventListener("click", () => { paused(); player.step(1); });
            zoom.addEventListener("change", () => { setting.zoom = Number(zoom.value); player.zoom(setting.zoom); });
            element.append(make("div", {class: "controls"}, play, previous, next, zoom, label), make("div", {class: "stages"}, ...stages));
            element.append(facts());
            player.start(setting);
          }
          if (output.errors.length) element.append(make("pre", {class: "errors"}, output.errors.join("\\n")));
          else if (!output.url) element.append(make("p", {class: "warning"}, "Not rendered: see the errors above."));
          cards.set(output.id, {key, element, player});
          return element;
        }

        function show(state) {
          const seen = new Set();
          const sections = state.groups.map(group => {
            const section = make("section", {class: "group", id: "group-" + group.id},
                                 make("h2", {}, group.title, " ", make("small", {}, group.subtitle)));
            if (group.errors.length) section.append(make("pre", {class: "errors"}, group.errors.join("\\n")));
            for (const w of group.warnings) section.append(make("p", {class: "warning"}, "warning: " + w));
            section.append(make("div", {class: "cards"}, ...group.outputs.map(output => { seen.add(output.id); return card(output); })));
            if (group.files.length) section.append(make("p", {class: "files"}, "Watching " + group.files.join(", ")));
            return section;
          });
          for (const [id, c] of cards) {
            if (!seen.has(id)) { if (c.player) c.player.stop(); cards.delete(id); }
          }
          groupsElement.replaceChildren(...sections);
          document.body.dataset.generation = state.generation;
        }

        const events = new EventSource("/events");
        events.addEventListener("state", e => { show(JSON.parse(e.data)); say("live: saving a file it watches updates this page"); });
        events.addEventListener("change", e => { show(JSON.parse(e.data)); say("updated at " + new Date().toLocaleTimeString()); });
        events.addEventListener("error", () => say("disconnected; retrying…", true));
        </script>
        """)
}
