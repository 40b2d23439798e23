import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startEnvironment, type Environment } from "@/lib/testing/environment";
import { createTestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { logLine } from "@/lib/testing/logs";
import { imageSize, pdfInfo } from "@/lib/testing/pdf";
import { createRender, download, slowHtml, waitForState } from "@/lib/testing/renders";

// Every render limit provoked for real: the render fails with error {code, diagnostic, message},
// has no result and no file. Limits that need lowered settings run in an environment of their own.

type Rendered = {
  id: string;
  state: string;
  result?: { downloadUrl?: string; pageCount: number; outputBytes: number };
  error?: { code: string; diagnostic: string; message: string };
};

type Target = { key: string; baseUrl?: string };

/** Creates a render, waits for it to end and returns the ended record. */
async function renderEnded(t: Target, body: Record<string, unknown>): Promise<Rendered> {
  const opts = { baseUrl: t.baseUrl };
  const res = await createRender(t.key, { waitMs: 20_000, ...body }, opts);
  expect([200, 202], res.text).toContain(res.status);
  return (res.status === 200 ? res.body : await waitForState(t.key, res.body.id, undefined, { ...opts, timeout: 40_000 })) as Rendered;
}

/** A failed render as the API shows it: the error, no result, and 409 for its file. */
async function expectFailed(t: Target, r: Rendered, code: string, diagnostic: string) {
  expect(r.state, JSON.stringify(r)).toBe("failed");
  expect(r.error).toEqual({ code, diagnostic, message: expect.any(String) });
  expect(r.error!.message.length).toBeGreaterThan(0);
  expect(r).not.toHaveProperty("result");
  const again = await api(`/v1/renders/${r.id}`, { key: t.key, baseUrl: t.baseUrl });
  expect(again.body).toMatchObject({ state: "failed", error: { code, diagnostic } });
  expect(again.body).not.toHaveProperty("result");
  expectError(await api(`/v1/renders/${r.id}/file`, { key: t.key, baseUrl: t.baseUrl }), 409, "CONFLICT");
}

async function expectSucceeded(r: Rendered) {
  expect(r.state, JSON.stringify(r.error)).toBe("succeeded");
  const file = await download(r.result!.downloadUrl!);
  expect(file.status).toBe(200);
  expect(file.bytes.byteLength).toBe(r.result!.outputBytes);
  expect(file.bytes.byteLength).toBeGreaterThan(0);
  return file.bytes;
}

/** n pages, one short paragraph each. */
const pagesHtml = (n: number) =>
  Array.from({ length: n }, (_, i) => `<div style="page-break-after:${i < n - 1 ? "always" : "auto"}">page ${i + 1}</div>`).join("");

// The environment with lowered limits starts in the background while the shared-worker cases run.
// why 3 s and not the 1 s minimum: on a loaded test machine an ordinary render can take over 1 s.
const lowered = {
  RENDER_TIMEOUT_MS: "3000",
  RENDER_MAX_INPUT_BYTES: "10000",
  RENDER_MAX_OUTPUT_BYTES: "20000",
  RENDER_MAX_PAGES: "3",
  RENDER_MAX_HEAP_BYTES: String(64 * 1024 * 1024),
  WORKER_CONCURRENCY: "1",
};
let envReady: Promise<Environment>;

beforeAll(() => {
  envReady = startEnvironment(lowered);
  envReady.catch(() => {}); // reported by the tests that await it
});

afterAll(async () => {
  await (await envReady.catch(() => undefined))?.stop();
});

describe("limits on the shared worker", () => {
  const shared = async (): Promise<Target> => ({ key: (await createTestWorkspace()).key, baseUrl: inject("baseUrl") });

  it("max_pages: 201 pages fail with LIMIT_EXCEEDED, exactly 200 succeed", async () => {
    const t = await shared();
    const over = await renderEnded(t, { document: { html: pagesHtml(201) } });
    await expectFailed(t, over, "LIMIT_EXCEEDED", "max_pages");
    const at = await renderEnded(t, { document: { html: pagesHtml(200) } });
    const bytes = await expectSucceeded(at);
    expect(at.result!.pageCount).toBe(200);
    expect(pdfInfo(bytes).Pages).toBe("200");
  });

  it("document_invalid: pageRanges selecting none of the pages", async () => {
    const t = await shared();
    const [beyond, partly] = await Promise.all([
      renderEnded(t, { document: { html: "<p>one page</p>" }, pageRanges: "5-6" }),
      renderEnded(t, { document: { html: pagesHtml(2) }, pageRanges: "3" }),
    ]);
    await expectFailed(t, beyond, "RENDER_FAILED", "document_invalid");
    await expectFailed(t, partly, "RENDER_FAILED", "document_invalid");
  });

  it("image_page_missing: an image of a page the document lacks", async () => {
    const t = await shared();
    const [png, jpeg] = await Promise.all([
      renderEnded(t, { document: { html: "<p>one page</p>" }, format: "png", image: { page: 3 } }),
      renderEnded(t, { document: { html: pagesHtml(2) }, format: "jpeg", image: { page: 3 } }),
    ]);
    await expectFailed(t, png, "RENDER_FAILED", "image_page_missing");
    await expectFailed(t, jpeg, "RENDER_FAILED", "image_page_missing");
  });

  it("image_too_large: taller than 8192 or wider than 4096 pixels", async () => {
    const t = await shared();
    const doc = (widthMm: number, heightMm: number) => ({ html: "<p>big</p>", settings: { pageSize: { widthMm, heightMm } } });
    const cases = await Promise.all([
      // 3000 mm at 96 dpi: 11339 px tall.
      renderEnded(t, { document: doc(210, 3000), format: "png" }),
      // 600 mm at scale 4: 9071 px tall.
      renderEnded(t, { document: doc(210, 600), format: "png", image: { scale: 4 } }),
      // 300 mm at scale 4: 4535 px wide.
      renderEnded(t, { document: doc(300, 200), format: "jpeg", image: { scale: 4 } }),
    ]);
    for (const r of cases) await expectFailed(t, r, "LIMIT_EXCEEDED", "image_too_large");
  });

  it("A4 at scale 4 (3175 x 4490 pixels) is within the image limits", async () => {
    const t = await shared();
    const r = await renderEnded(t, { document: { html: "<p>large but allowed</p>" }, format: "png", image: { scale: 4 } });
    const size = imageSize(await expectSucceeded(r));
    expect(size.type).toBe("png");
    expect(Math.abs(size.width - 3175)).toBeLessThanOrEqual(1);
    expect(Math.abs(size.height - 4490)).toBeLessThanOrEqual(1);
  });
});

describe("limits set low (RENDER_TIMEOUT_MS 3000, input 10000 and output 20000 bytes, 3 pages, 64 MiB heap)", () => {
  let env: Environment;
  let t: Target;

  beforeAll(async () => {
    env = await envReady;
    t = { key: env.key, baseUrl: env.baseUrl };
  });

  it("a small document succeeds within every lowered limit", async () => {
    const r = await renderEnded(t, { document: { html: "<p>small</p>" } });
    await expectSucceeded(r);
    expect(r.result!.outputBytes).toBeLessThanOrEqual(20_000);
  });

  it("time limit (diagnostic LIMIT_EXCEEDED, as the spec's limits table names it): a render past RENDER_TIMEOUT_MS fails within a few seconds, and the next one succeeds", async () => {
    const started = Date.now();
    const slow = await renderEnded(t, { document: { html: slowHtml(15_000) } });
    const took = Date.now() - started;
    await expectFailed(t, slow, "LIMIT_EXCEEDED", "LIMIT_EXCEEDED");
    expect(slow.error!.message).toContain("3 s");
    // A time-out is a warning in the worker's log.
    expect(await logLine(env.worker.logFile, (l) => l.renderId === slow.id)).toMatchObject({ level: 40, msg: "render ended", state: "failed", diagnostic: "LIMIT_EXCEEDED" });
    // Stopped at the limit, long before the script's 15 s busy loop would have ended.
    expect(took).toBeGreaterThanOrEqual(3000);
    expect(took).toBeLessThan(14_000);
    // The only warm page was stuck in the script: it was replaced, and the next render works.
    const next = await renderEnded(t, { document: { html: "<p>after the timeout</p>" } });
    await expectSucceeded(next);
  });

  it("time limit during settings.waitFor without timeoutMs: LIMIT_EXCEEDED naming what the page was waited for", async () => {
    const never = await renderEnded(t, { document: { html: "<p>never ready</p>", settings: { waitFor: { selector: "#chart.done" } } } });
    await expectFailed(t, never, "LIMIT_EXCEEDED", "LIMIT_EXCEEDED");
    expect(never.error!.message).toBe('The render took longer than its time limit of 3 s; it was still waiting for the page to load and for an element matching "#chart.done"');
  });

  it("max_input_bytes: the document, header and footer together over the limit", async () => {
    const filler = (n: number) => `<p>${"x".repeat(n)}</p>`;
    // One at a time: the environment has a single render slot.
    const html = await renderEnded(t, { document: { html: filler(20_000) } });
    const split = await renderEnded(t, { document: { html: filler(4000), header: filler(4000), footer: filler(4000) } });
    const fits = await renderEnded(t, { document: { html: filler(9000) } });
    await expectFailed(t, html, "LIMIT_EXCEEDED", "max_input_bytes");
    await expectFailed(t, split, "LIMIT_EXCEEDED", "max_input_bytes");
    await expectSucceeded(fits);
  });

  it("max_output_bytes: a PDF larger than the limit", async () => {
    // A few hundred bytes of script paint a canvas with noise: a PDF of about a megabyte.
    const html = `<p>noise</p><canvas id="c" width="600" height="600"></canvas><script>
      const ctx = document.getElementById("c").getContext("2d");
      const img = ctx.createImageData(600, 600);
      for (let i = 0; i < img.data.length; i++) img.data[i] = i % 4 === 3 ? 255 : (Math.random() * 256) | 0;
      ctx.putImageData(img, 0, 0);
    </script>`;
    expect(Buffer.byteLength(html)).toBeLessThan(10_000);
    const r = await renderEnded(t, { document: { html } });
    await expectFailed(t, r, "LIMIT_EXCEEDED", "max_output_bytes");
  });

  it("max_pages follows a lowered RENDER_MAX_PAGES", async () => {
    const over = await renderEnded(t, { document: { html: pagesHtml(4) } });
    const at = await renderEnded(t, { document: { html: pagesHtml(3) } });
    await expectFailed(t, over, "LIMIT_EXCEEDED", "max_pages");
    await expectSucceeded(at);
    expect(at.result!.pageCount).toBe(3);
  });

  it("render_process_exited: a script exhausting the page's memory", async () => {
    const hog = `<p>hog</p><script>
      const keep = [];
      for (;;) keep.push(new Array(1 << 20).fill(Math.random()));
    </script>`;
    const r = await renderEnded(t, { document: { html: hog } });
    await expectFailed(t, r, "RENDER_FAILED", "render_process_exited");
    // The crash itself, reported at once (not a browser failure retried until the attempts ran out).
    expect(r.error!.message).toMatch(/memory|exited/i);
    // A crash is a warning in the worker's log.
    expect(await logLine(env.worker.logFile, (l) => l.renderId === r.id)).toMatchObject({ level: 40, msg: "render ended", state: "failed", diagnostic: "render_process_exited", attempt: 1 });
    const next = await renderEnded(t, { document: { html: "<p>after the crash</p>" } });
    await expectSucceeded(next);
  });
});
