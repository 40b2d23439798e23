import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config, resetConfigForTests } from "@/lib/config";
import { resolveSettings, type WaitFor } from "@/lib/documents/page-settings";
import { pdfText } from "@/lib/testing/pdf";
import { BrowserPool } from "./browser";
import { RenderFailure } from "./errors";
import { renderDocument } from "./render";

// Addresses beyond loopback and DNS names: the fence must refuse them without a packet leaving
// this machine, and without a name being looked up. The proof must not send one either, even when
// the fence is broken. So these renders run through the worker's own code (BrowserPool, its launch
// arguments, renderDocument) on a Chromium started in a network namespace that holds loopback only,
// writing its net-log: every lookup, connection and request its network stack makes is recorded.
// (A renderer's own refusals, such as file: URLs, never reach that stack; network.test.ts covers
// them on the real worker.)

/** Link-local (cloud metadata), private, shared and "this host" addresses, and names that resolve nowhere. */
const HOSTS = [
  "169.254.169.254",
  "10.0.0.1",
  "172.16.0.1",
  "192.168.0.1",
  "100.64.0.1",
  "0.0.0.0",
  "[fe80::1]",
  "[fd00::1]",
  "[::ffff:a9fe:a9fe]", // 169.254.169.254 as an IPv4-mapped IPv6 address
  "fence-name.invalid",
  "fence-name.test",
];
/** The closed port the browser's proxy points at (see chromiumArgs). */
const PROXY = "127.0.0.1:9";

type NetLog = { lookups: string[]; tcpConnects: string[]; udpConnects: string[]; requests: string[] };

/** What Chromium's network stack did, from its net-log: names resolved, addresses connected, URLs requested. */
function readNetLog(file: string): NetLog {
  const log = JSON.parse(fs.readFileSync(file, "utf8")) as {
    constants: { logEventTypes: Record<string, number> };
    events: { type: number; params?: Record<string, unknown> }[];
  };
  const typeName = new Map(Object.entries(log.constants.logEventTypes).map(([k, v]) => [v, k]));
  const out: NetLog = { lookups: [], tcpConnects: [], udpConnects: [], requests: [] };
  for (const e of log.events) {
    const type = typeName.get(e.type) ?? "";
    const p = e.params ?? {};
    const host = p.host ?? p.hostname;
    if (/^(HOST_RESOLVER|DNS_)/.test(type) && typeof host === "string") out.lookups.push(host);
    if (type === "TCP_CONNECT_ATTEMPT" && typeof p.address === "string") out.tcpConnects.push(p.address);
    if (type === "UDP_CONNECT" && typeof p.address === "string") out.udpConnects.push(p.address);
    if (type === "REQUEST_ALIVE" && typeof p.url === "string") out.requests.push(p.url);
  }
  return out;
}

/** Whether a URL, host or address names one of HOSTS. */
const namesTestHost = (s: string) => HOSTS.some((h) => s.includes(h) || s.includes(h.replace(/^\[|\]$/g, "")));

type Job = { html: string; header?: string; footer?: string; waitFor?: WaitFor };

let realChromium: string;
const configuredChromium = process.env.CHROMIUM_PATH;

/** Puts CHROMIUM_PATH back as the environment had it. */
function restoreChromiumPath() {
  if (configuredChromium === undefined) delete process.env.CHROMIUM_PATH;
  else process.env.CHROMIUM_PATH = configuredChromium;
  resetConfigForTests();
}

beforeAll(() => {
  try {
    execFileSync("unshare", ["--map-root-user", "--net", "true"], { stdio: "pipe" });
  } catch (e) {
    throw new Error(`These tests need \`unshare --net\` (root, or user namespaces): ${(e as Error).message}`);
  }
  realChromium = config().CHROMIUM_PATH;
});

afterAll(restoreChromiumPath);

/**
 * Renders each job on a BrowserPool whose Chromium runs sealed (see the top of the file), then closes
 * it, which completes the net-log. Returns each job's PDF text or its RenderFailure, and the net-log.
 */
async function renderSealed(jobs: Job[]): Promise<{ results: (string | RenderFailure)[]; net: NetLog }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-sealed-"));
  fs.chmodSync(dir, 0o777); // the launcher runs, and Chromium writes its net-log, as the browser user (containment.ts)
  try {
    const netLog = path.join(dir, "netlog.json");
    const launcher = path.join(dir, "chromium");
    const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
    fs.writeFileSync(
      launcher,
      // why two user namespaces: the launcher runs as the unprivileged browser user, which may make a
      // network namespace only inside a user namespace of its own, as root there to bring loopback
      // up; the browser then runs under its own uid again (Chromium refuses its sandbox as root).
      `#!/bin/sh
PATH="$PATH:/usr/sbin:/sbin"
exec unshare --map-root-user --net sh -c 'uid=$1 gid=$2; shift 2; ip link set lo up && exec unshare --map-user="$uid" --map-group="$gid" "$0" "$@"' \
  ${quote(realChromium)} "$(id -u)" "$(id -g)" --log-net-log=${quote(netLog)} "$@"
`,
      { mode: 0o755 },
    );
    process.env.CHROMIUM_PATH = launcher;
    resetConfigForTests();
    const pool = new BrowserPool(1);
    const results: (string | RenderFailure)[] = [];
    try {
      await pool.start();
      for (const [i, job] of jobs.entries()) {
        const { waitFor, ...rest } = job;
        const job1 = { renderId: `rnd_sealed${i}`, attempt: 1, settings: resolveSettings(waitFor && { waitFor }), format: "pdf" as const, test: false, ...rest };
        try {
          const out = await renderDocument(pool, job1, AbortSignal.timeout(30_000));
          results.push(pdfText(out.bytes));
        } catch (e) {
          if (!(e instanceof RenderFailure)) throw e;
          results.push(e);
        }
      }
      // why: a page still being reset or replaced in the background would fail noisily under close.
      await pool.acquire();
    } finally {
      await pool.close(); // Chromium completes the net-log as it exits
      restoreChromiumPath();
    }
    return { results, net: readNetLog(netLog) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Nothing of the document reached a resolver or a socket; only WebSockets, which routing cannot see, went to the closed proxy. */
function expectNothingLeft(net: NetLog) {
  expect(net.lookups.filter(namesTestHost)).toEqual([]);
  expect(net.tcpConnects.filter((a) => a !== PROXY)).toEqual([]);
  // A UDP connect() sends nothing (Chromium probes IPv6 reachability with one); none may target HOSTS or DNS.
  expect(net.udpConnects.filter((a) => namesTestHost(a) || a.endsWith(":53"))).toEqual([]);
  expect(net.requests.filter(namesTestHost).filter((u) => !u.startsWith("ws:"))).toEqual([]);
}

describe("network block beyond loopback (sealed browser)", () => {
  it("requests to link-local and private addresses and to names are refused; no name is looked up", async () => {
    const probes = HOSTS.map(
      (h) => `<link rel="dns-prefetch" href="//${h}">
        <link rel="preconnect" href="http://${h}">
        <link rel="stylesheet" href="http://${h}/style.css">
        <img src="http://${h}/img.png" alt="" onload="note('${h} img loaded')" onerror="note('${h} img refused')">
        <iframe src="http://${h}/frame"></iframe>`,
    );
    // why the page sets folioReady: a refused WebSocket or fetch settles on its own time, not before
    // the load event, and a loaded machine once printed before the last of them had.
    const html = `<!doctype html><div id="out"></div>
      <script>
        function note(s) { const d = document.createElement("div"); d.textContent = s; document.getElementById("out").append(d); }
        const settled = [];
        for (const h of ${JSON.stringify(HOSTS)}) {
          settled.push(fetch("http://" + h + "/fetch").then(() => note(h + " fetch reached"), () => note(h + " fetch refused")));
          settled.push(fetch("https://" + h + "/fetch").then(() => note(h + " https reached"), () => note(h + " https refused")));
          settled.push(new Promise((done) => {
            const ws = new WebSocket("ws://" + h + "/ws");
            ws.onopen = () => done(note(h + " ws reached"));
            ws.onerror = () => done(note(h + " ws refused"));
          }));
        }
        Promise.allSettled(settled).then(() => { note("all probes settled"); window.folioReady = true; });
      </script>
      ${probes.join("\n")}`;
    const { results, net } = await renderSealed([{ html, waitFor: { flag: true, timeoutMs: 25_000 } }]);
    const text = results[0];
    if (typeof text !== "string") throw text;
    expect(text).toContain("all probes settled");
    for (const h of HOSTS) {
      for (const kind of ["fetch", "https", "ws", "img"]) expect(text).toContain(`${h} ${kind} refused`);
    }
    expect(text).not.toMatch(/reached|loaded/);
    expectNothingLeft(net);
    // The control: the net-log does record this page's traffic. Each WebSocket reached the network
    // stack and went, like everything there, to the closed proxy. (Without the route and the proxy,
    // the log shows each name sent to the resolver and a connection to each address.)
    expect(net.requests.filter(namesTestHost).sort()).toEqual(HOSTS.map((h) => `ws://${h}/ws`).sort());
    expect(net.tcpConnects).toContain(PROXY);
  });

  it("the header and footer reach neither addresses nor names", async () => {
    // why the frames are small: 22 frames of the default 300 x 150 would push a footer's first line
    // (it grows upwards from the page's bottom edge) off the page.
    const margin = (label: string) => `<div>${label} kept
      ${HOSTS.map(
        (h) => `<img src="http://${h}/img.png" alt="">
        <span style="display: inline-block; width: 9px; height: 9px; background: url('http://${h}/background.png')"></span>
        <link rel="dns-prefetch" href="//${h}"><link rel="preconnect" href="http://${h}">
        <iframe src="http://${h}/frame" width="9" height="9"></iframe><object data="http://${h}/object" width="9" height="9"></object>`,
      ).join("\n")}
    </div>`;
    const linking = `<span>linking kept</span>
      <link rel="stylesheet" href="http://169.254.169.254/style.css">
      <style>@import url("http://fence-name.invalid/import.css"); @font-face { font-family: R; src: url("http://fence-name.test/font.woff2"); }</style>
      <span style="font-family: R">font</span>`;
    const { results, net } = await renderSealed([
      { html: "<p>body</p>", header: margin("header"), footer: margin("footer") },
      { html: "<p>body</p>", header: linking },
    ]);
    const [drawn, linked] = results;
    expect(drawn).toEqual(expect.stringContaining("header kept"));
    expect(drawn).toEqual(expect.stringContaining("footer kept"));
    // What they link elsewhere is refused and they are drawn without it.
    expect(linked).toEqual(expect.stringContaining("linking kept"));
    expectNothingLeft(net);
    // Nothing of the margins even reached the network stack, WebSockets included.
    expect(net.requests.filter(namesTestHost)).toEqual([]);
  });
});
