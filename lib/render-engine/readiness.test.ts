import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/factories";
import { expectError } from "@/lib/testing/http";
import { pdfImages, pdfText } from "@/lib/testing/pdf";
import { createRender, download, waitForState } from "@/lib/testing/renders";

// Readiness (settings.waitFor): a page that draws after its load event (a chart after a timer,
// content a script adds) is printed once it says it is ready, within the render's time limit;
// a wait that outlasts its timeoutMs fails the render naming what it waited for.

type Rendered = { id: string; state: string; result?: { downloadUrl: string }; error?: { code: string; diagnostic: string; message: string } };

let key: string;

beforeAll(async () => {
  key = (await createTestWorkspace()).key;
});

async function ended(document: Record<string, unknown>): Promise<Rendered> {
  const res = await createRender(key, { document, waitMs: 30_000 });
  expect([200, 202], res.text).toContain(res.status);
  return (res.status === 200 ? res.body : await waitForState(key, res.body.id, undefined, { timeout: 60_000 })) as Rendered;
}

async function pdfOf(document: Record<string, unknown>): Promise<Uint8Array> {
  const r = await ended(document);
  expect(r.state, JSON.stringify(r.error)).toBe("succeeded");
  return (await download(r.result!.downloadUrl)).bytes;
}

/** How many pixels of page 1 are not white, rasterised in grey at 36 dpi. */
function inkedPixels(pdf: Uint8Array): number {
  const pgm = execFileSync("pdftoppm", ["-gray", "-r", "36", "-f", "1", "-l", "1", "-singlefile", "-"], { input: pdf });
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.toString("latin1", 0, 40))!;
  const pixels = pgm.subarray(header[0].length);
  let n = 0;
  for (const v of pixels) if (v < 230) n++;
  return n;
}

const chartJs = `data:text/javascript;base64,${fs.readFileSync(path.join(process.cwd(), "node_modules/chart.js/dist/chart.umd.min.js")).toString("base64")}`;

/**
 * A bar chart drawn by Chart.js `delayMs` after load, which then sets window.folioReady. (The copy
 * rendered without waitFor gets a delay no render outlasts, so a busy machine cannot draw it in time.)
 */
const chartPage = (delayMs: number) => `<!doctype html><html><body>
  <h1>Sales</h1><canvas id="chart" width="600" height="300"></canvas>
  <script src="${chartJs}"></script>
  <script>
    setTimeout(() => {
      new Chart(document.getElementById("chart"), {
        type: "bar",
        data: { labels: ["Q1", "Q2", "Q3", "Q4"], datasets: [{ label: "Sales", data: [12, 19, 7, 15], backgroundColor: "#1d4ed8" }] },
        options: { animation: false, responsive: false },
      });
      window.folioReady = true;
    }, ${delayMs});
  </script></body></html>`;

describe("settings.waitFor", () => {
  it("a Chart.js chart drawn after a timer: blank without waitFor, drawn with the ready flag", { timeout: 100_000 }, async () => {
    const [blank, drawn] = await Promise.all([pdfOf({ html: chartPage(600_000) }), pdfOf({ html: chartPage(1000), settings: { waitFor: { flag: true, timeoutMs: 20_000 } } })]);
    for (const pdf of [blank, drawn]) expect(pdfText(pdf)).toContain("Sales");
    const [before, after] = [inkedPixels(blank), inkedPixels(drawn)];
    // The heading alone inks a few hundred pixels at 36 dpi; four solid bars add thousands.
    expect(after - before, `blank ${before}, drawn ${after}`).toBeGreaterThan(2_000);
    expect(pdfImages(drawn).length).toBeGreaterThan(0); // the canvas, as an image
  });

  it("a selector: printed once an element matching it exists", { timeout: 100_000 }, async () => {
    const html = (delayMs: number) =>
      `<p>static</p><script>setTimeout(() => { const d = document.createElement("div"); d.id = "report"; d.className = "done"; d.textContent = "late content"; document.body.append(d); }, ${delayMs});</script>`;
    const [without, withSelector] = await Promise.all([pdfOf({ html: html(600_000) }), pdfOf({ html: html(1000), settings: { waitFor: { selector: "#report.done" } } })]);
    expect(pdfText(without)).not.toContain("late content");
    expect(pdfText(withSelector)).toContain("late content");
  });

  it("a delay: printed that long after load and fonts, even for a page whose only script is the timer", async () => {
    const html = `<p>static</p><script>setTimeout(() => document.body.append("after the timer"), 200);</script>`;
    expect(pdfText(await pdfOf({ html, settings: { waitFor: { delayMs: 1200 } } }))).toContain("after the timer");
  });

  it("a flag that is never set fails the render after timeoutMs, naming what it waited for", async () => {
    const r = await ended({ html: "<p>never ready</p><script>window.folioReady = false;</script>", settings: { waitFor: { flag: true, timeoutMs: 500 } } });
    expect(r.state).toBe("failed");
    expect(r.error).toEqual({
      code: "RENDER_FAILED",
      diagnostic: "document_invalid",
      message: "The page was not ready within settings.waitFor.timeoutMs (500 ms): it waited for window.folioReady = true",
    });
    const s = await ended({ html: "<p>no such element</p>", settings: { waitFor: { selector: ".chart-done", timeoutMs: 300 } } });
    expect(s.error?.message).toBe('The page was not ready within settings.waitFor.timeoutMs (300 ms): it waited for an element matching ".chart-done"');
  });

  it("a selector that is not CSS fails the render with document_invalid", async () => {
    const r = await ended({ html: "<p>x</p>", settings: { waitFor: { selector: "#a[" } } });
    expect(r.error).toEqual({ code: "RENDER_FAILED", diagnostic: "document_invalid", message: 'settings.waitFor.selector "#a[" is not a valid CSS selector' });
  });

  it("a flag already set while the page loads prints at once", async () => {
    const started = Date.now();
    const pdf = await pdfOf({ html: "<p>ready now</p><script>window.folioReady = true;</script>", settings: { waitFor: { flag: true } } });
    expect(pdfText(pdf)).toContain("ready now");
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("refuses waitFor shapes that say nothing or too much (400 naming the field)", async () => {
    const cases: [unknown, string][] = [
      [{}, "document.settings.waitFor"],
      [{ flag: true, delayMs: 100 }, "document.settings.waitFor.delayMs"],
      [{ flag: false }, "document.settings.waitFor.flag"],
      [{ delayMs: 100, timeoutMs: 50 }, "document.settings.waitFor.timeoutMs"],
      [{ delayMs: 60_001 }, "document.settings.waitFor.delayMs"],
      [{ selector: "" }, "document.settings.waitFor.selector"],
      [{ flag: true, until: "load" }, "document.settings.waitFor.until"],
    ];
    for (const [waitFor, field] of cases) {
      const res = await createRender(key, { document: { html: "<p>x</p>", settings: { waitFor } } });
      const e = expectError(res, 400, "BAD_REQUEST");
      expect((e.details as { path: string }[] | undefined)?.map((d) => d.path), JSON.stringify(waitFor)).toContain(field);
    }
  });

  it("node documents take waitFor in their settings too", async () => {
    const res = await createRender(key, {
      nodeDocument: { root: { type: "text", text: "node text" }, settings: { waitFor: { delayMs: 50 } } },
      waitMs: 30_000,
    });
    expect([200, 202], res.text).toContain(res.status);
    const r = (res.status === 200 ? res.body : await waitForState(key, res.body.id)) as Rendered;
    expect(r.state).toBe("succeeded");
    expect(pdfText((await download(r.result!.downloadUrl)).bytes)).toContain("node text");
  });
});
