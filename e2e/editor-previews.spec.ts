import { and, count, eq, gte } from "drizzle-orm";
import { systemCtx } from "../lib/auth/context";
import { db } from "../lib/db/client";
import { renders, workspaces } from "../lib/db/schema";
import { createKeyAsSystem } from "../lib/keys";
import * as templates from "../lib/templates";
import { baseURL, createPerson, expect, signIn, test } from "./fixtures";

/**
 * The editor's live preview apart from production (docs/api.md, Editor previews): a person types
 * in the template editor, pausing as people do, so the pane asks for more previews than the
 * workspace's renders a minute allow; the pane never shows an error, and the workspace's API
 * renders made meanwhile are admitted as before. In `npm test` the person types until the server
 * has made more editor previews than the allowance (a few seconds); `npm run test:soak` types for
 * two minutes (TYPING_MS=120000).
 */

/**
 * The workspace's rendersPerMinute in this journey. why not the default 60: a small allowance is
 * passed after a few words, and the API renders (one after the first word, one each 30 s while the
 * person types, one after the typing: at most 4 in any minute) stay within it only if previews take
 * nothing from it.
 */
const RENDERS_PER_MINUTE = 4;
/** One API render each 30 s while the person types. */
const API_RENDER_EVERY_MS = 30_000;

// why the typing ends on a count of previews made, not on a time (but in the soak script): the
// browser's pace on a shared 2-core machine varies tenfold with the load, and a time long enough for
// the slowest pace kept a core busy for half a minute at the usual one.
const TYPING_MS = Number(process.env.TYPING_MS ?? 0);
/** Words typed at most past TYPING_MS: a pane that makes no previews fails the journey's assertion, not its time-out. */
const MAX_WORDS = 60;
// why: the typing, plus sign-in and the first render on a shared 2-core machine.
test.describe.configure({ timeout: TYPING_MS + 120_000 });
const root = (text: string) => JSON.stringify({ root: { type: "container", style: { fontSize: 24 }, children: [{ type: "text", text }] } }, null, 2);

test("a person types in the editor without a preview error while the workspace's API renders are admitted", async ({ page }) => {
  const member = await createPerson({ role: "member" });
  const ctx = systemCtx(member.workspaceId, "e2e");
  const t = await templates.createTemplate(ctx, { name: "Typed for a minute", content: { composition: JSON.parse(root("Typing ")) } });
  await db().update(workspaces).set({ rendersPerMinute: RENDERS_PER_MINUTE }).where(eq(workspaces.id, member.workspaceId));
  const key = await createKeyAsSystem(ctx, "e2e production", ["render:create", "render:read"], null);

  await signIn(page, member.email, member.password, `/templates/${t.id}`);
  const box = page.getByRole("textbox", { name: "composition.json" });
  await expect(box).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("img", { name: /^Page 1 of \d+$/ })).toBeVisible({ timeout: 30_000 });

  const asked: number[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/preview") && r.method() === "POST") asked.push(Date.now());
  });
  const previewStatuses: number[] = [];
  page.on("response", (r) => {
    if (r.url().includes("/preview") && r.request().method() === "POST") previewStatuses.push(r.status());
  });

  // The composition pasted in a known layout, then the cursor inside the text's string: four lines
  // up from the end, before its closing quote.
  await box.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText(root("Typing "));
  await page.keyboard.press("ControlOrMeta+End");
  for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowUp");
  await page.keyboard.press("End");
  await page.keyboard.press("ArrowLeft");

  const apiStatuses: number[] = [];
  const apiRender = async (i: number) => {
    const res = await fetch(`${baseURL()}/v1/renders`, {
      method: "POST",
      headers: { "x-api-key": key.secret, "content-type": "application/json" },
      body: JSON.stringify({ document: { html: `<p>API render ${i}</p>` } }),
    });
    apiStatuses.push(res.status);
  };
  const words = ["invoice", "total", "due", "customer", "amount", "thanks", "paid", "net", "tax", "page"];
  const started = Date.now();
  // What the workspace's renders a minute would admit over the typing: an allowance for each minute begun.
  const allowance = () => Math.max(1, Math.ceil((Date.now() - started) / 60_000)) * RENDERS_PER_MINUTE;
  // The editor previews the server made since the typing began (the workspace's renders of source
  // editorPreview), those the browser stopped waiting for as the person typed on included: each is a
  // render the allowance would count if previews counted in it.
  const since = new Date(started - 1000);
  const previewsMade = async () =>
    (await db().select({ n: count() }).from(renders).where(and(eq(renders.workspaceId, member.workspaceId), eq(renders.source, "editorPreview"), gte(renders.createdAt, since))))[0]!.n;
  let nextApiRender = started;
  for (let i = 0; Date.now() - started < TYPING_MS || ((await previewsMade()) <= allowance() + 1 && i < MAX_WORDS); i++) {
    // A word typed at a person's pace, then a pause long enough for the pane to ask (300 ms).
    await page.keyboard.type(`${words[i % words.length]} `, { delay: 40 });
    await page.waitForTimeout(400 + (i % 3) * 150);
    await expect(page.getByTestId("preview-status")).not.toHaveText(/Render failed|Not rendered/, { timeout: 1 });
    await expect(page.getByRole("region", { name: "Preview: pages" }).getByRole("alert")).toHaveCount(0, { timeout: 1 });
    if (Date.now() >= nextApiRender) {
      nextApiRender += API_RENDER_EVERY_MS;
      await apiRender(i);
    }
  }
  // After more previews made than the allowance, within the minute of the first API render:
  // admitted only if the previews took nothing from the workspace's renders a minute.
  await apiRender(-1);

  // More previews made than the workspace's renders a minute would admit over the typing.
  expect(await previewsMade(), `previews made (${asked.length} asked for)`).toBeGreaterThan(allowance());
  // Every API render made while and after the person typed was admitted.
  expect(apiStatuses.length).toBeGreaterThanOrEqual(Math.max(1, Math.floor(TYPING_MS / API_RENDER_EVERY_MS)) + 1);
  for (const s of apiStatuses) expect([201, 202]).toContain(s);
  expect(previewStatuses.filter((s) => s >= 400 && s !== 429)).toEqual([]);
  // The last edit is shown: the pane settles on a rendered page, not an error.
  await expect(page.getByTestId("preview-status")).toHaveText(/\d+ pages? · \d+ ms/, { timeout: 30_000 });
  await expect(page.getByRole("region", { name: "Preview: pages" }).getByRole("alert")).toHaveCount(0);
});
