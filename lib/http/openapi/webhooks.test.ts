/**
 * The document's `webhooks` against what the server really sends: real renders end on the real
 * server and worker, a real receiver on loopback gets the signed POSTs (the test servers allow
 * private networks), and each body and its headers must fit the webhook of its type, strictly
 * (a field the document lacks fails), as answers must fit their operations (lib/testing/openapi.ts).
 */
import { Validator, type Schema } from "@cfworker/json-schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestWorkspace } from "../../testing/factories";
import { api } from "../../testing/http";
import { createRender, heldRender } from "../../testing/renders";
import { startReceiver, type Receiver, type Received } from "../../testing/webhooks";

type Json = Record<string, unknown>;
type Webhook = { post: { parameters: { name: string; in: string; required?: boolean; schema: Json }[]; requestBody: { content: { "application/json": { schema: Json } } } } };
type Doc = { webhooks: Record<string, Webhook>; components: { schemas: Record<string, Json> } };

/** An object schema silent on other properties refuses them (as the answers' check does). */
function closed(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(closed);
  if (!s || typeof s !== "object") return s;
  const o = Object.fromEntries(Object.entries(s).map(([k, v]) => [k, k === "properties" ? Object.fromEntries(Object.entries(v as Json).map(([pk, pv]) => [pk, closed(pv)])) : closed(v)])) as Json;
  if (o.type === "object" && o.properties && o.additionalProperties === undefined) o.additionalProperties = false;
  return o;
}

let doc: Doc;
let receiver: Receiver;
beforeAll(async () => {
  doc = (await api("/v1/openapi.json")).body as Doc;
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

function fits(schema: Json, value: unknown): string[] {
  const defs = closed(JSON.parse(JSON.stringify(doc.components.schemas).replaceAll("#/components/schemas/", "#/$defs/")));
  const s = closed(JSON.parse(JSON.stringify(schema).replaceAll("#/components/schemas/", "#/$defs/"))) as Json;
  const r = new Validator({ ...s, $defs: defs } as Schema, "2020-12", false).validate(value);
  return r.valid ? [] : r.errors.map((e) => `${e.instanceLocation}: ${e.error}`);
}

/** The request fits the webhook of its type: body, and every required header parameter present and valid. */
function expectFits(got: Received) {
  const body = JSON.parse(got.body) as { type: string };
  const hook = doc.webhooks[body.type];
  expect(hook, `a webhook for ${body.type}`).toBeDefined();
  expect(fits(hook!.post.requestBody.content["application/json"].schema, body), `${body.type} body ${got.body}`).toEqual([]);
  for (const p of hook!.post.parameters.filter((x) => x.in === "header")) {
    const value = got.headers[p.name];
    if (p.required) expect(value, `${body.type}: header ${p.name}`).toBeDefined();
    if (value !== undefined) expect(fits(p.schema, value), `${body.type}: header ${p.name} ${String(value)}`).toEqual([]);
  }
  expect(got.headers["content-type"]).toBe("application/json");
  return body;
}

describe("webhooks: the events the server sends fit the document", () => {
  it("render.succeeded, render.failed, render.cancelled and webhook.test", async () => {
    const w = await createTestWorkspace();
    const created = await api("/v1/webhook-endpoints", { key: w.key, body: { url: receiver.url, eventTypes: ["render.succeeded", "render.failed", "render.cancelled"] } });
    expect(created.status, created.text).toBe(201);
    const before = receiver.received.length;

    const ok = await createRender(w.key, { document: { html: "<p>Hello</p>" }, waitMs: 30_000 });
    expect(ok.body.state, ok.text).toBe("succeeded");
    // pageRanges selecting no page fails the render (RENDER_FAILED, document_invalid).
    const bad = await createRender(w.key, { document: { html: "<p>Hello</p>" }, pageRanges: "9", waitMs: 30_000 });
    expect(bad.body.state, bad.text).toBe("failed");
    const held = await heldRender(w.id);
    expect((await api(`/v1/renders/${held}/cancel`, { key: w.key, method: "POST" })).status).toBe(200);
    const test = await api(`/v1/webhook-endpoints/${created.body.id}/test`, { key: w.key, method: "POST" });
    expect(test.body.delivered, test.text).toBe(true);

    const ours = new Set([ok.body.id, bad.body.id, held, created.body.id]);
    const mine = (r: Received) => {
      const b = JSON.parse(r.body) as { data: { renderId?: string; endpointId?: string } };
      return ours.has(b.data.renderId ?? b.data.endpointId ?? "");
    };
    await expect.poll(() => receiver.received.slice(before).filter(mine).length, { timeout: 20_000 }).toBe(4);
    const types = receiver.received.slice(before).filter(mine).map(expectFits).map((b) => b.type);
    expect(types.sort()).toEqual(["render.cancelled", "render.failed", "render.succeeded", "webhook.test"]);
  });
});
