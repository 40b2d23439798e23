import dgram from "node:dgram";
import fs from "node:fs";
import http from "node:http";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/factories";
import { pdfFonts, pdfImages, pdfText } from "@/lib/testing/pdf";
import { createRender, download, waitForState } from "@/lib/testing/renders";

// The rendered page reaches no network: a listening server on this machine that the document
// points at in every way a page can load something must see no request and no connection.
// Addresses beyond loopback and DNS names are tested in network-sealed.test.ts, on a browser that
// cannot send anything off this machine.

/** A server on 127.0.0.1 that records every TCP connection, HTTP request, upgrade and UDP datagram. */
type Recorder = { port: number; connections: number; requests: string[]; datagrams: number; reset: () => void; close: () => Promise<void> };

async function startRecorder(): Promise<Recorder> {
  const rec = { connections: 0, requests: [] as string[], datagrams: 0 };
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    rec.requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { "content-type": "text/plain", "access-control-allow-origin": "*" });
    res.end("reached");
  });
  server.on("connection", (s: net.Socket) => {
    rec.connections++;
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  server.on("upgrade", (req, socket: net.Socket) => {
    rec.requests.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  // STUN/TURN over UDP on the same port number.
  const udp = dgram.createSocket("udp4");
  udp.on("message", () => rec.datagrams++);
  await new Promise<void>((resolve) => udp.bind(port, "127.0.0.1", resolve));
  return Object.assign(rec, {
    port,
    reset: () => {
      rec.connections = 0;
      rec.requests.length = 0;
      rec.datagrams = 0;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => udp.close(() => resolve()));
    },
  });
}

/** A PNG of the given size, one colour, built here so its size is known. */
function png(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (b: Buffer) => {
    let c = 0xffffffff;
    for (const byte of b) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x40)]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", zlib.deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

let server: Recorder;

beforeAll(async () => {
  server = await startRecorder();
});

afterAll(async () => {
  await server?.close();
});

/** Renders with waitMs and returns the ended record and, when it succeeded, the PDF and its text. */
async function renderText(key: string, html: string, margins: { header?: string; footer?: string } = {}, settings?: object) {
  const res = await createRender(key, { document: { html, ...margins, ...(settings && { settings }) }, waitMs: 20_000 });
  expect([200, 202], res.text).toContain(res.status);
  const render = res.status === 200 ? res.body : await waitForState(key, res.body.id, undefined, { timeout: 40_000 });
  if (render.state !== "succeeded") return { render, text: "", bytes: new Uint8Array() };
  const file = await download(render.result.downloadUrl);
  expect(file.status).toBe(200);
  return { render, text: pdfText(file.bytes), bytes: file.bytes };
}

/** Waits a little for requests still on their way, then expects none to have arrived. */
async function expectNothingReached() {
  await new Promise((r) => setTimeout(r, 500));
  expect({ connections: server.connections, requests: server.requests, datagrams: server.datagrams }).toEqual({ connections: 0, requests: [], datagrams: 0 });
}

describe("network block", () => {
  it("the recording server does see a request made outside the browser", async () => {
    // The control: without it, a server that counted nothing would pass every test below.
    server.reset();
    expect(await (await fetch(`http://127.0.0.1:${server.port}/control`)).text()).toBe("reached");
    expect(server.requests).toEqual(["GET /control"]);
    expect(server.connections).toBeGreaterThanOrEqual(1);
    server.reset();
  });

  it("nothing the document references reaches a listening server on this machine", async () => {
    const w = await createTestWorkspace();
    const base = `http://127.0.0.1:${server.port}`;
    const html = `<!doctype html><html><head>
      <link rel="stylesheet" href="${base}/style.css">
      <link rel="preconnect" href="${base}">
      <link rel="dns-prefetch" href="${base}">
      <link rel="prefetch" href="${base}/prefetch">
      <link rel="preload" as="image" href="${base}/preload.png">
      <link rel="icon" href="${base}/favicon.ico">
      <style>
        @import url("${base}/import.css");
        @font-face { font-family: Remote; src: url("${base}/font.woff2") format("woff2"); }
        body { background: url("${base}/background.png"); font-family: Remote, sans-serif; }
        .cursor { cursor: url("${base}/cursor.png"), auto; }
      </style>
      <script src="${base}/script.js"></script>
      <script type="module" src="${base}/module.js"></script>
    </head><body>
      <img src="${base}/img.png">
      <img srcset="${base}/srcset.png 1x" alt="">
      <picture><source srcset="${base}/source.png"><img src="${base}/picture.png" alt=""></picture>
      <iframe src="${base}/frame"></iframe>
      <video src="${base}/video.mp4" autoplay muted poster="${base}/poster.png"></video>
      <audio src="${base}/audio.mp3" autoplay></audio>
      <object data="${base}/object"></object>
      <embed src="${base}/embed">
      <svg width="10" height="10"><image href="${base}/svg-image.png" width="10" height="10"/></svg>
      <a ping="${base}/ping" href="${base}/link">link</a>
      <p id="out">network test</p>
      <script>
        const base = ${JSON.stringify(base)};
        const attempt = (fn) => { try { const p = fn(); if (p && p.catch) p.catch(() => {}); } catch {} };
        attempt(() => fetch(base + "/fetch"));
        attempt(() => fetch(base + "/fetch-post", { method: "POST", body: "x", mode: "no-cors" }));
        attempt(() => fetch("http://localhost:${server.port}/fetch-localhost"));
        attempt(() => { const x = new XMLHttpRequest(); x.open("GET", base + "/xhr"); x.send(); });
        attempt(() => { const x = new XMLHttpRequest(); x.open("GET", base + "/xhr-sync", false); x.send(); });
        attempt(() => new WebSocket("ws://127.0.0.1:${server.port}/ws"));
        attempt(() => navigator.sendBeacon(base + "/beacon", "x"));
        attempt(() => new EventSource(base + "/events"));
        attempt(() => { new Image().src = base + "/new-image"; });
        attempt(() => import(base + "/dynamic-import.js"));
        attempt(() => new Worker(base + "/worker.js"));
        attempt(() => navigator.serviceWorker && navigator.serviceWorker.register(base + "/sw.js"));
        attempt(() => {
          const pc = new RTCPeerConnection({ iceServers: [
            { urls: "stun:127.0.0.1:${server.port}" },
            { urls: "turn:127.0.0.1:${server.port}?transport=udp", username: "u", credential: "p" },
            { urls: "turn:127.0.0.1:${server.port}?transport=tcp", username: "u", credential: "p" },
          ] });
          pc.createDataChannel("x");
          return pc.createOffer().then((o) => pc.setLocalDescription(o));
        });
        document.getElementById("out").textContent = "network test: scripts ran";
      </script>
    </body></html>`;
    server.reset();
    const { render, text } = await renderText(w.key, html);
    await expectNothingReached();
    expect(render.state, JSON.stringify(render.error)).toBe("succeeded");
    expect(render.result.pageCount).toBe(1);
    expect(text).toContain("network test: scripts ran");
    expect(text).not.toContain("blocked");
  });

  // A document that navigates itself away keeps its own content: the navigation is refused, the
  // render ends as succeeded with the document's text, and no Chromium error page is printed.
  const base = () => `http://127.0.0.1:${server.port}`;
  const navigations: [string, () => string][] = [
    ["a meta refresh", () => `<meta http-equiv="refresh" content="0;url=${base()}/meta-refresh"><p>kept: refresh</p>`],
    [
      "a location change after 200 ms",
      () => `<p>kept: location</p><script>
        setTimeout(() => { location.href = ${JSON.stringify(`${base()}/location`)}; }, 200);
        // Busy past 200 ms, so the timer is due while the render still runs.
        const end = Date.now() + 300; while (Date.now() < end) {}
      </script>`,
    ],
    ["an immediate location change", () => `<p>kept: immediate</p><script>location.replace(${JSON.stringify(`${base()}/replace`)})</script>`],
    ["a form submission", () => `<form id="f" method="post" action="${base()}/form"><input name="a" value="b"></form><p>kept: form</p><script>document.getElementById("f").submit()</script>`],
    ["a clicked link with ping", () => `<a id="a" ping="${base()}/ping" href="${base()}/link">kept: link</a><script>document.getElementById("a").click()</script>`],
    ["a popup", () => `<p>kept: popup</p><script>window.open(${JSON.stringify(`${base()}/popup`)})</script>`],
  ];
  for (const [what, html] of navigations) {
    it(`${what} to the server reaches nothing and the document is printed`, async () => {
      const w = await createTestWorkspace();
      server.reset();
      const { render, text } = await renderText(w.key, html());
      await expectNothingReached();
      expect(render.state, JSON.stringify(render.error)).toBe("succeeded");
      expect(text).toContain("kept:");
      expect(text).not.toContain("blocked");
    });
  }

  it("a data: URL image loads", async () => {
    const w = await createTestWorkspace();
    const src = `data:image/png;base64,${png(7, 3).toString("base64")}`;
    const html = `<img id="dot" src="${src}"><p id="out">not loaded</p><script>
      addEventListener("load", () => {
        const img = document.getElementById("dot");
        document.getElementById("out").textContent = "data image " + img.naturalWidth + "x" + img.naturalHeight;
      });
    </script>`;
    server.reset();
    const { text } = await renderText(w.key, html);
    expect(text).toContain("data image 7x3");
  });
});

// Files on the worker's own disk that a document points at with file: URLs. Their contents are
// markers that must never show in the output: not as text, image or font.
const SECRET_TEXT = "fence-secret-text";
const SECRET_CSS = "fence-secret-css";
/** From fonts-dejavu-core (scripts/ensure-system.sh). A PDF names the fonts it uses, so pdffonts shows whether this one was. */
const MONO_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
let secrets: string;
const secretUrl = (name: string) => pathToFileURL(path.join(secrets, name)).href;
/** The sizes ("29x17") of the images a PDF draws: the secret image is 37 x 23, the data: control 29 x 17. */
const imageSizes = (bytes: Uint8Array) => pdfImages(bytes).map((i) => `${i.width}x${i.height}`);
const dataPng = () => `data:image/png;base64,${png(29, 17).toString("base64")}`;

beforeAll(() => {
  secrets = fs.mkdtempSync(path.join(os.tmpdir(), "folio-fence-"));
  fs.chmodSync(secrets, 0o755); // readable by the worker even if it ran as another user
  fs.writeFileSync(path.join(secrets, "secret.txt"), SECRET_TEXT);
  fs.writeFileSync(path.join(secrets, "secret.html"), `<p>${SECRET_TEXT}</p>`);
  fs.writeFileSync(path.join(secrets, "secret.css"), `.from-file::before { content: "${SECRET_CSS} "; }`);
  fs.writeFileSync(path.join(secrets, "secret.png"), png(37, 23));
  fs.copyFileSync(MONO_FONT, path.join(secrets, "secret.ttf"));
});

afterAll(() => {
  if (secrets) fs.rmSync(secrets, { recursive: true, force: true });
});

describe("file: URLs", () => {
  it("the document reads nothing from the worker's disk", async () => {
    const w = await createTestWorkspace();
    const u = secretUrl;
    const dataFont = `data:font/ttf;base64,${fs.readFileSync(MONO_FONT).toString("base64")}`;
    const html = `<!doctype html>
      <script>function note(s) { const d = document.createElement("div"); d.textContent = s; document.getElementById("out").append(d); }</script>
      <div id="out"></div>
      <link rel="stylesheet" href="${u("secret.css")}" onload="note('stylesheet loaded')" onerror="note('stylesheet refused')">
      <style>
        @import url("${u("secret.css")}");
        @font-face { font-family: DataFont; src: url("${dataFont}"); }
        .bg { background: url("${u("secret.png")}"); width: 40px; height: 30px; }
        ul { list-style-image: url("${u("secret.png")}"); }
      </style>
      <p class="from-file">stylesheet probe</p>
      <p style="font-family: DataFont">data font control</p>
      <div class="bg"></div>
      <ul><li>list probe</li></ul>
      <img src="${dataPng()}" alt="">
      <img src="${u("secret.png")}" alt="" onload="note('img loaded')" onerror="note('img refused')">
      <iframe src="${u("secret.txt")}"></iframe>
      <iframe src="${u("secret.html")}"></iframe>
      <object data="${u("secret.txt")}"></object>
      <embed src="${u("secret.txt")}">
      <video poster="${u("secret.png")}"></video>
      <svg width="40" height="30"><image href="${u("secret.png")}" width="40" height="30"/></svg>
      <script>
        // why the page sets folioReady: these settle on their own time, which may be after the load event.
        const url = ${JSON.stringify(u("secret.txt"))};
        const probes = [fetch(url).then((r) => r.text()).then((t) => note("fetch read " + t), () => note("fetch refused"))];
        probes.push(new Promise((done) => {
          try {
            const x = new XMLHttpRequest();
            x.onload = () => done(note("xhr read " + x.responseText));
            x.onerror = () => done(note("xhr refused"));
            x.open("GET", url);
            x.send();
          } catch { done(note("xhr refused")); }
        }));
        probes.push(new FontFace("LocalFont", ${JSON.stringify(`url("${u("secret.ttf")}")`)}).load().then(() => note("font loaded"), () => note("font refused")));
        Promise.allSettled(probes).then(() => { window.folioReady = true; });
      </script>`;
    const { render, text, bytes } = await renderText(w.key, html, {}, { waitFor: { flag: true, timeoutMs: 20_000 } });
    expect(render.state, JSON.stringify(render.error)).toBe("succeeded");
    for (const refused of ["stylesheet refused", "img refused", "fetch refused", "xhr refused", "font refused"]) expect(text).toContain(refused);
    expect(text).not.toMatch(/loaded|fetch read|xhr read/);
    expect(text).not.toContain(SECRET_TEXT);
    expect(text).not.toContain(SECRET_CSS);
    // The controls: a data: image and a data: font do load, and the PDF shows them.
    expect(imageSizes(bytes)).toContain("29x17");
    expect(imageSizes(bytes)).not.toContain("37x23");
    expect(pdfFonts(bytes).some((f) => f.endsWith("DejaVuSansMono"))).toBe(true);
  });

  it("the header and footer read nothing from the worker's disk; their data: images load", async () => {
    const w = await createTestWorkspace();
    const u = secretUrl;
    const margin = (label: string) => `<div>${label} probe
      <img src="${dataPng()}" alt="">
      <img src="${u("secret.png")}" alt="">
      <span style="display: inline-block; width: 40px; height: 30px; background: url('${u("secret.png")}')"></span>
      <svg width="40" height="30"><image href="${u("secret.png")}" width="40" height="30"/></svg>
      <link rel="stylesheet" href="${u("secret.css")}">
      <style>@import url("${u("secret.css")}"); @font-face { font-family: LocalFont; src: url("${u("secret.ttf")}"); }</style>
      <span class="from-file" style="font-family: LocalFont">${label} font probe</span>
      <iframe src="${u("secret.txt")}"></iframe>
      <object data="${u("secret.txt")}"></object>
      <embed src="${u("secret.txt")}">
    </div>`;
    const { render, text, bytes } = await renderText(w.key, "<p>body</p>", { header: margin("header"), footer: margin("footer") });
    expect(render.state, JSON.stringify(render.error)).toBe("succeeded");
    expect(text).toContain("header font probe");
    expect(text).toContain("footer font probe");
    expect(text).not.toContain(SECRET_TEXT);
    expect(text).not.toContain(SECRET_CSS);
    expect(imageSizes(bytes)).toContain("29x17");
    expect(imageSizes(bytes)).not.toContain("37x23");
    expect(pdfFonts(bytes).filter((f) => f.endsWith("DejaVuSansMono"))).toEqual([]);
  });
});

// The header and footer are drawn by the document itself (margins.ts), under the same routing as
// the body; what they reference must reach nothing all the same.
describe("header and footer", () => {
  const base = () => `http://127.0.0.1:${server.port}`;

  it("nothing they reference reaches a listening server on this machine", async () => {
    const w = await createTestWorkspace();
    const b = base();
    const margin = (label: string) => `<div>${label} kept
      <img src="${b}/${label}/img.png" alt="">
      <img srcset="${b}/${label}/srcset.png 1x" alt="">
      <picture><source srcset="${b}/${label}/source.png"><img src="${b}/${label}/picture.png" alt=""></picture>
      <span style="display: inline-block; width: 9px; height: 9px; background: url('${b}/${label}/background.png')"></span>
      <span style="display: inline-block; width: 9px; height: 9px; background-image: image-set('${b}/${label}/image-set.png' 1x)"></span>
      <svg width="9" height="9"><image href="${b}/${label}/svg-image.png" width="9" height="9"/></svg>
      <iframe src="${b}/${label}/frame"></iframe>
      <object data="${b}/${label}/object"></object>
      <embed src="${b}/${label}/embed">
      <video src="${b}/${label}/video.mp4" poster="${b}/${label}/poster.png" autoplay muted></video>
      <audio src="${b}/${label}/audio.mp3" autoplay></audio>
      <input type="image" src="${b}/${label}/input.png" alt="">
      <table background="${b}/${label}/table.png"><tr><td>cell</td></tr></table>
      <link rel="dns-prefetch" href="${b}">
      <link rel="preconnect" href="${b}">
      <link rel="icon" href="${b}/${label}/favicon.ico">
      <script src="${b}/${label}/script.js"></script>
      <script>fetch(${JSON.stringify(`${b}/${label}/inline-script`)})</script>
      <img src="broken" alt="" onerror="fetch('${b}/${label}/onerror'); new WebSocket('ws://127.0.0.1:${server.port}/${label}/ws'); navigator.sendBeacon('${b}/${label}/beacon')">
      <svg onload="fetch('${b}/${label}/svg-onload')" width="1" height="1"></svg>
      <a ping="${b}/${label}/ping" href="${b}/${label}/link">link</a>
      <meta http-equiv="refresh" content="0;url=${b}/${label}/refresh">
      <form action="${b}/${label}/form"><input name="a" autofocus onfocus="this.form.submit()"></form>
    </div>`;
    server.reset();
    const { render, text } = await renderText(w.key, "<p>body</p>", { header: margin("header"), footer: margin("footer") });
    await expectNothingReached();
    expect(render.state, JSON.stringify(render.error)).toBe("succeeded");
    expect(text).toContain("header kept");
    expect(text).toContain("footer kept");
  });

  // A header or footer that links a stylesheet, font or preload elsewhere is drawn without it: the
  // load is refused inside the browser as the body's are, and nothing is fetched.
  const refused: [string, "header" | "footer", () => string][] = [
    ["a stylesheet link", "header", () => `<link rel="stylesheet" href="${base()}/style.css">`],
    ["an @import", "header", () => `<style>@import url("${base()}/import.css");</style>`],
    ["an @import of a string", "footer", () => `<style>@import "${base()}/import-string.css";</style>`],
    ["a web font in use", "header", () => `<style>@font-face { font-family: Remote; src: url("${base()}/font.woff2"); }</style><span style="font-family: Remote">font</span>`],
    ["a preload link", "footer", () => `<link rel="preload" as="style" href="${base()}/preload.css">`],
    ["a prefetch link", "header", () => `<link rel="prefetch" href="${base()}/prefetch">`],
  ];
  for (const [what, where, html] of refused) {
    it(`${what} in the ${where} fetches nothing; the ${where} is drawn without it`, async () => {
      const w = await createTestWorkspace();
      server.reset();
      const { render, text } = await renderText(w.key, "<p>body</p>", { [where]: `<span>kept</span>${html()}` });
      await expectNothingReached();
      expect(render.state, JSON.stringify(render.error)).toBe("succeeded");
      expect(text).toContain("kept");
    });
  }

  it("a data: stylesheet and @import style the header", async () => {
    const w = await createTestWorkspace();
    const css = (rule: string) => `data:text/css,${encodeURIComponent(rule)}`;
    const header = `<link rel="stylesheet" href="${css(".a::before { content: 'styled by link' }")}">
      <style>@import url("${css(".b::before { content: 'styled by import' }")}");</style>
      <span class="a"></span> <span class="b"></span>`;
    server.reset();
    const { render, text } = await renderText(w.key, "<p>body</p>", { header });
    await expectNothingReached();
    expect(render.state, JSON.stringify(render.error)).toBe("succeeded");
    expect(text).toContain("styled by link");
    expect(text).toContain("styled by import");
  });
});
