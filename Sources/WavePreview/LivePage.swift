/// The live preview page: self-contained HTML, CSS and JavaScript (nothing loaded from elsewhere).
/// It listens to `/events` and draws what each event's state lists: every output on a light and a
/// dark tile, with play and pause, frame stepping, zoom with crisp pixels and the output's numbers.
/// Each tile shows the file as an image at once; then raster frames are decoded with the browser's
/// ImageDecoder (WebCodecs), so any single frame can be shown, and SVG is placed inline and
/// paused or stepped through the Web Animations API. A preset with a dark twin shows its light
/// theme on the light tile and its dark theme on the dark one (an SVG under `data-theme`, other
/// formats as their `--theme dark` render); a live SVG gets a level slider that sets `--level` on
/// its wrappers; every card links its preset packed as `wavegen presets pack` writes it. A card
/// whose file did not change is left playing.
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
        .stage .svg { line-height: 0; }
        .controls input.level { width: 110px; }
        .controls output { font-variant-numeric: tabular-nums; min-width: 3.5em; }
        .pack { margin: 6px 0 0; font-size: 12px; color: #78909C; }
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

        // The file each tile shows: the output's, or on the dark tile its dark theme's render.
        function tileURLs(output) {
          return [output.url, output.dark ? output.dark.url : output.url];
        }

        // Until a player is ready, each tile shows its file as an <img>, playing.
        class Player {
          constructor(output, stages, label) {
            this.output = output;
            this.label = label;
            this.index = 0;
            this.scale = 1;
            this.urls = tileURLs(output);
            this.themes = stages.map(stage => stage.dataset.theme);
            this.shown = stages.map((stage, i) => {
              const img = make("img", {src: this.urls[i], alt: output.path});
              stage.prepend(img);
              return img;
            });
          }
          // Puts what make(tile) returns in place of each tile's current element.
          replace(make) {
            this.shown = this.shown.map((old, i) => { const e = make(i); old.replaceWith(e); return e; });
            this.zoom(this.scale);
          }
          // While the preset renders again, a card that shows a file from before the save stops
          // drawing frames, so that the render has the cores (the page's own decoding competes with
          // it on a small machine); it goes on once the render is done.
          hold(on, setting) {
            if (on === !!this.held || this.stopped) return;
            this.held = on;
            if (on) this.pause(); else if (setting.playing) this.play();
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
            // One decoder per file: both tiles share one unless the dark tile shows a dark theme.
            this.files = [...new Set(this.urls)].map(url => ({url, frames: []}));
            this.epoch = 0;
          }
          async start(setting) {
            this.zoom(setting.zoom);
            try {
              if (!("ImageDecoder" in window) || !(await ImageDecoder.isTypeSupported(this.output.mimeType))) {
                this.label.textContent = `${this.output.frames} frames (stepping needs ImageDecoder)`;
                return;
              }
              for (const file of this.files) {
                const data = await (await fetch(file.url)).arrayBuffer();
                if (this.stopped) return;
                file.decoder = new ImageDecoder({data, type: this.output.mimeType});
                await file.decoder.tracks.ready;
                await file.decoder.completed;
              }
              this.decoder = this.files[0].decoder;
              this.count = Math.min(...this.files.map(f => f.decoder.tracks.selectedTrack.frameCount));
              this.keep = this.output.width * this.output.height * this.count * this.files.length <= 16e6;
              await this.frame(0);
              if (this.stopped) return;
              this.replace(() => make("canvas", {width: this.output.width, height: this.output.height}));
              await this.show(0, this.epoch);
              if (setting.playing && !this.held) this.play();
            } catch (error) {
              this.label.textContent = "cannot decode: " + error;
            }
          }
          // Frame k of every file, in the order of this.files.
          async frame(k) {
            return Promise.all(this.files.map(async file => {
              if (file.frames[k]) return file.frames[k];
              const result = await file.decoder.decode({frameIndex: k});
              const frame = {bitmap: await createImageBitmap(result.image), ms: result.image.duration / 1000};
              result.image.close();
              if (this.keep) file.frames[k] = frame;
              return frame;
            }));
          }
          async show(k, epoch) {
            const frames = await this.frame(k);
            const frame = frames[0];
            if (this.stopped || epoch !== this.epoch) return frame;
            this.index = k;
            this.shown.forEach((canvas, i) => {
              const context = canvas.getContext("2d");
              context.clearRect(0, 0, canvas.width, canvas.height);
              context.drawImage(frames[this.files.findIndex(f => f.url === this.urls[i])].bitmap, 0, 0);
            });
            if (!this.keep) for (const f of frames) f.bitmap.close();
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
            for (const file of this.files) {
              if (file.decoder) file.decoder.close();
              for (const frame of file.frames) if (frame) frame.bitmap.close();
            }
          }
        }

        // An SVG placed inline in each tile, in a wrapper whose data-theme is the tile's and on
        // which a live SVG's level slider sets --level; its CSS animations (the drift, not the
        // level's transition) driven through the Web Animations API. Not in a shadow root: there
        // a live SVG's @property would not register, so its level would not ease. Two copies of
        // one SVG agree: its ids, classes and property names carry its digest.
        class VectorPlayer extends Player {
          constructor(output, stages, label) {
            super(output, stages, label);
            this.count = output.frames;
            this.period = output.duration * 1000;
            this.svgs = [];
          }
          // Sets the level (0…1) of a live SVG's copies, now and once they are placed.
          setLevel(level) {
            this.level = level;
            for (const e of this.shown) if (e.classList.contains("svg")) e.style.setProperty("--level", level);
          }
          async start(setting) {
            this.zoom(setting.zoom);
            try {
              const text = await (await fetch(this.output.url)).text();
              if (this.stopped) return;
              const root = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
              if (root.localName !== "svg") throw new Error("not an SVG document");
              this.svgs = [];
              this.replace(i => {
                const wrapper = make("div", {class: "svg", "data-theme": this.themes[i]});
                const svg = document.importNode(root, true);
                svg.style.display = "block";
                svg.style.width = svg.style.height = "100%";
                wrapper.append(svg);
                this.svgs.push(svg);
                return wrapper;
              });
              if (this.level !== undefined) this.setLevel(this.level);
              if (setting.playing && !this.held) this.play(); else this.show(0);
            } catch (error) {
              this.label.textContent = "cannot show: " + error;
            }
          }
          animations() {
            return this.svgs.flatMap(svg => svg.getAnimations({subtree: true})).filter(a => !(a instanceof CSSTransition));
          }
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

        // The generation of the state being shown, and per group rendering again the generation
        // of the first state that said so: cards made before it show files from before the save.
        let generation = 0;
        const renderingSince = new Map();

        // The link to the card's preset packed (its preset's, which changes with every save).
        function packLink(output) {
          if (output.pack) {
            return [make("p", {class: "pack"}, make("a", {href: output.pack.url, download: output.pack.fileName}, "download packed preset"),
                         ` (${output.pack.bytes} bytes, as 'wavegen presets pack' writes it)`)];
          }
          return output.packError ? [make("p", {class: "pack"}, "cannot pack the preset: " + output.packError)] : [];
        }

        // A card is made again only when its output's file or numbers change; a save that leaves
        // them as they were only updates the packed preset's link, and the player goes on.
        function card(output, since) {
          const {pack, packError, ...shown} = output;
          const key = JSON.stringify(shown);
          const old = cards.get(output.id);
          if (old && old.key === key) {
            const held = since !== undefined && old.generation < since;
            if (old.player) old.player.hold(held, old.setting);
            old.element.dataset.held = held;
            old.packBox.replaceChildren(...packLink(output));
            return old.element;
          }
          if (old && old.player) old.player.stop();
          const setting = settings.get(output.id) || {zoom: defaultZoom(output), playing: true};
          settings.set(output.id, setting);
          const element = make("figure", {class: output.url ? "card" : "card failed", "data-output": output.id, "data-file": output.url || "",
                                          "data-dark-file": output.dark ? output.dark.url : ""},
                               make("figcaption", {}, output.path));
          let player = null;
          const facts = () => make("dl", {}, ...output.facts.flatMap(f =>
            [make("dt", {}, f.label), make("dd", {}, f.text, f.alert ? make("span", {class: "over"}, " " + f.alert) : null)]));
          if (output.url && !output.mimeType.startsWith("image/")) {
            // A format no browser shows as an image: its numbers and the file (and its dark theme's).
            const file = output.path.split("/").pop();
            const links = [make("a", {href: output.url, download: file}, output.dark ? "save the light theme" : "save the file")];
            if (output.dark) links.push(" · ", make("a", {href: output.dark.url, download: file.replace(/(\\.[^.]*)?$/, "-dark$1")},
                                                   "save the dark theme (--theme dark)"));
            element.append(make("p", {class: "warning"}, "A browser does not show " + output.mimeType + "; ", ...links), facts());
          } else if (output.url) {
            const label = make("span", {class: "frame"}, "loading…");
            const play = make("button", {type: "button", class: "play", title: "Play or pause"}, setting.playing ? "pause" : "play");
            const previous = make("button", {type: "button", class: "previous", title: "Previous frame"}, "◀");
            const next = make("button", {type: "button", class: "next", title: "Next frame"}, "▶");
            const zoom = make("select", {class: "zoom", title: "Zoom"},
                              ...zooms.map(z => make("option", z === setting.zoom ? {value: z, selected: ""} : {value: z}, z + "×")));
            const vector = output.mimeType === "image/svg+xml";
            const caption = theme => !output.darkTwin ? theme : theme === "light" || vector ? theme + " theme"
              : output.dark ? "dark theme (--theme dark)" : "dark theme: rendering…";
            const stages = ["light", "dark"].map(theme => make("div", {class: "stage " + theme, "data-theme": theme}, make("span", {}, caption(theme))));
            player = vector ? new VectorPlayer(output, stages, label) : new RasterPlayer(output, stages, label);
            const paused = () => { setting.playing = false; play.textContent = "play"; };
            play.addEventListener("click", () => {
              setting.playing = !setting.playing;
              play.textContent = setting.playing ? "pause" : "play";
              if (setting.playing) player.play(); else player.pause();
            });
            previous.addEventListener("click", () => { paused(); player.step(-1); });
            next.addEventListener("click", () => { paused(); player.step(1); });
            zoom.addEventListener("change", () => { setting.zoom = Number(zoom.value); player.zoom(setting.zoom); });
            const controls = make("div", {class: "controls"}, play, previous, next, zoom, label);
            if (vector && output.live !== undefined) {
              // A live SVG: its level, from the preset's own; moving it eases the water there.
              const percent = Math.round((setting.level ?? output.live) * 100);
              const slider = make("input", {type: "range", class: "level", min: 0, max: 100, step: 1, value: percent, title: "Level (--level)"});
              const shown = make("output", {}, percent + " %");
              slider.addEventListener("input", () => {
                setting.level = slider.value / 100;
                shown.textContent = slider.value + " %";
                player.setLevel(setting.level);
              });
              if (setting.level !== undefined) player.setLevel(setting.level);
              controls.append(make("span", {}, "level"), slider, shown);
            }
            element.append(controls, make("div", {class: "stages"}, ...stages));
            element.append(facts());
            player.start(setting);
          }
          const packBox = make("div", {class: "packbox"}, ...packLink(output));
          element.append(packBox);
          if (output.errors.length) element.append(make("pre", {class: "errors"}, output.errors.join("\\n")));
          else if (output.pending) element.append(make("p", {}, "rendering…"));
          else if (!output.url) element.append(make("p", {class: "warning"}, "Not rendered: see the errors above."));
          cards.set(output.id, {key, element, player, setting, generation, packBox});
          return element;
        }

        function show(state) {
          const seen = new Set();
          generation = state.generation;
          const sections = state.groups.map(group => {
            if (!group.rendering) renderingSince.delete(group.id);
            else if (!renderingSince.has(group.id)) renderingSince.set(group.id, state.generation);
            const since = renderingSince.get(group.id);
            const section = make("section", {class: "group", id: "group-" + group.id},
                                 make("h2", {}, group.title, " ", make("small", {}, group.subtitle)));
            if (group.errors.length) section.append(make("pre", {class: "errors"}, group.errors.join("\\n")));
            for (const w of group.warnings) section.append(make("p", {class: "warning"}, "warning: " + w));
            section.append(make("div", {class: "cards"}, ...group.outputs.map(output => { seen.add(output.id); return card(output, since); })));
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
