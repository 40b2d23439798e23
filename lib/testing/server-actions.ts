import fs from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { randomLoopback, requestFrom } from "./factories";
import { projectRoot } from "./server";

type Manifest = { node: Record<string, { workers: Record<string, unknown>; filename?: string; exportedName?: string }> };

/**
 * The id of a server action in the production build the test server runs, and the page it is
 * posted to (the first page using it; route groups dropped, dynamic segments left as written).
 */
export function serverAction(file: string, exportedName: string): { id: string; page: string } {
  const manifest = JSON.parse(fs.readFileSync(path.join(projectRoot, ".next/server/server-reference-manifest.json"), "utf8")) as Manifest;
  for (const [id, a] of Object.entries(manifest.node)) {
    if (a.filename !== file || a.exportedName !== exportedName) continue;
    const worker = Object.keys(a.workers)[0]!;
    return { id, page: worker.replace(/^app/, "").replace(/\/page$/, "").replace(/\/\([^)]*\)/g, "") || "/" };
  }
  throw new Error(`no server action ${exportedName} of ${file} in the build; run scripts/ensure-build.sh`);
}

export type ActionAnswer<T = unknown> = { status: number; result: { ok: true; data: T } | { ok: false; error: { code: string; message: string } } };

/**
 * Calls a console server action over HTTP as the browser does (the Next-Action header, the
 * arguments as JSON, the console's Origin), from `from` (a loopback address: the client address
 * the server sees), with `cookie` if given. `page` overrides the path posted to (for a page with a
 * dynamic segment). Answers the action's ActionResult.
 */
export async function callAction<T = unknown>(
  file: string,
  exportedName: string,
  input: unknown,
  opts: { cookie?: string; from?: string; page?: string } = {},
): Promise<ActionAnswer<T>> {
  const { id, page } = serverAction(file, exportedName);
  const baseUrl = inject("baseUrl");
  const headers: Record<string, string> = {
    "next-action": id,
    "content-type": "text/plain;charset=UTF-8",
    accept: "text/x-component",
    origin: new URL(baseUrl).origin,
  };
  if (opts.cookie) headers.cookie = opts.cookie;
  const res = await requestFrom(opts.from ?? randomLoopback(), `${baseUrl}${opts.page ?? page}`, { method: "POST", headers, body: JSON.stringify([input]) });
  // why by line: the answer is React's flight format, one `<id>:<json>` row per value; the result is the row with `ok`.
  for (const line of res.body.split("\n")) {
    const m = /^[0-9a-f]+:(\{.*\})$/.exec(line);
    if (!m) continue;
    const value = JSON.parse(m[1]!) as Record<string, unknown>;
    if (typeof value.ok === "boolean") return { status: res.status, result: value as ActionAnswer<T>["result"] };
  }
  throw new Error(`${exportedName}: no action result in the answer (${res.status}): ${res.body.slice(0, 500)}`);
}
