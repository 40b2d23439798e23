import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { createTestWorkspace, type TestWorkspace } from "../testing/factories";
import { api } from "../testing/http";
import { createRender, heldRender } from "../testing/renders";
import { freePort } from "../testing/server";
import { startReceiver, type Receiver, type Received } from "../testing/webhooks";
import { attemptScheduledDelivery, INTERRUPTED } from "./deliver";

/**
 * Deliveries end to end: real renders on the real server and worker, real HTTP receivers on
 * loopback (the test servers run with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true). Time is moved by
 * making a pending delivery due now in the database and waking the worker's dispatcher, never by
 * waiting out the schedule.
 */

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

type Endpoint = { id: string; secret: string; url: string };

async function endpoint(w: TestWorkspace, url: string, eventTypes = ["render.succeeded", "render.failed", "render.cancelled"]): Promise<Endpoint> {
  const res = await api("/v1/webhook-endpoints", { key: w.key, body: { url, eventTypes } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** A receiver of its own (requests of other tests never mix in), answering as told. */
async function ownReceiver(responder?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(responder);
  cleanups.push(() => r.close());
  return r;
}
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(cleanups.map((c) => c()));
});

async function renderPdf(w: TestWorkspace, body: Record<string, unknown> = {}) {
  const res = await createRender(w.key, { document: { html: "<p>Hello</p>" }, waitMs: 30_000, ...body });
  expect(["succeeded", "failed"], res.text).toContain(res.body.state);
  return res.body as { id: string; state: string; finishedAt?: string; error?: { code: string } };
}

async function deliveries(w: TestWorkspace, endpointId: string, query = "") {
  const res = await api(`/v1/webhook-endpoints/${endpointId}/deliveries${query}`, { key: w.key });
  expect(res.status, res.text).toBe(200);
  return res.body as { items: Record<string, unknown>[]; nextCursor?: string };
}

/** Polls the endpoint's deliveries until `pred` holds for the newest one, its attempt's outcome recorded. */
async function waitForDelivery(w: TestWorkspace, endpointId: string, pred: (d: Record<string, unknown>) => boolean, timeout = 20_000) {
  let last: Record<string, unknown> | undefined;
  await expect
    .poll(
      async () => {
        last = (await deliveries(w, endpointId)).items[0];
        return last !== undefined && last.lastError !== INTERRUPTED && pred(last);
      },
      { timeout, interval: 100 },
    )
    .toBe(true);
  return last!;
}

/** The clock moved forward: the delivery's next attempt is due now (optionally as if `attempts` had been made). */
async function makeDue(deliveryId: string, attempts?: number) {
  await db().execute(sql`update webhook_deliveries set next_attempt_at = now(), attempts = coalesce(${attempts ?? null}::int, attempts) where id = ${deliveryId}`);
  await db().execute(sql`select pg_notify('folio_webhook_due', '')`);
}

/**
 * Proves that nothing more was on its way to the receivers: a later event (a render of `w` ending
 * `state`) reaches each of them, and it is the only request each got since. The dispatcher hands
 * deliveries over oldest first and the worker fetches them in that order, so anything still
 * coming was handed over before the marker, whose render had yet to run. why not a pause: how long is long enough depends on the machine's load, and a pause
 * that is too short passes without proving anything.
 */
async function nothingElseArrives(w: TestWorkspace, receivers: Receiver[], state: "succeeded" | "failed" = "succeeded"): Promise<string> {
  const before = receivers.map((r) => r.received.length);
  const marker = await renderPdf(w, state === "failed" ? { pageRanges: "9" } : {});
  expect(marker.state).toBe(state);
  for (const [i, r] of receivers.entries()) {
    const got = await r.waitFor(before[i]! + 1);
    expect(got.slice(before[i]!).map((x) => JSON.parse(x.body).data.renderId)).toEqual([marker.id]);
  }
  return marker.id;
}

const verify = (secret: string, r: Received) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>);

describe("events of ended renders", () => {
  it("a succeeded render sends one signed render.succeeded event that the receiver verifies with standardwebhooks", async () => {
    const w = await createTestWorkspace();
    const r = await ownReceiver();
    const e = await endpoint(w, r.url);
    const render = await renderPdf(w, { test: true });
    const [got] = await r.waitFor(1);
    expect(got!.headers).toMatchObject({ "content-type": "application/json", "user-agent": "service-webhooks/1" });
    expect(got!.headers["webhook-id"]).toMatch(/^msg_/);
    expect(Math.abs(Number(got!.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(30);
    expect(got!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    const event = verify(e.secret, got!);
    expect(event).toEqual({ id: `evt_${render.id.slice(4)}`, type: "render.succeeded", createdAt: render.finishedAt, data: { renderId: render.id, status: "succeeded", test: true } });
    // A wrong secret does not verify.
    expect(() => verify("whsec_" + Buffer.alloc(32, 7).toString("base64"), got!)).toThrow();

    const d = await waitForDelivery(w, e.id, (x) => x.status === "succeeded");
    expect(d).toEqual({
      id: got!.headers["webhook-id"],
      eventId: `evt_${render.id.slice(4)}`,
      eventType: "render.succeeded",
      renderId: render.id,
      status: "succeeded",
      attempts: 1,
      lastStatusCode: 200,
      lastAttemptAt: expect.any(String),
      createdAt: expect.any(String),
    });
    await nothingElseArrives(w, [r]);
    expect(r.received).toHaveLength(2);
  });

  it("a failed render sends render.failed with its errorCode, only to endpoints subscribed to it; the event id is the same for every endpoint", async () => {
    const w = await createTestWorkspace();
    const [a, b, c] = [await ownReceiver(), await ownReceiver(), await ownReceiver()];
    const ea = await endpoint(w, a.url, ["render.failed"]);
    const eb = await endpoint(w, b.url, ["render.failed", "render.succeeded"]);
    await endpoint(w, c.url, ["render.succeeded"]);
    const ok = await renderPdf(w);
    const failed = await renderPdf(w, { pageRanges: "9" });
    expect(failed.state).toBe("failed");
    const [ga] = await a.waitFor(1);
    await b.waitFor(2);
    await c.waitFor(1);
    const fa = verify(ea.secret, ga!) as Record<string, unknown>;
    expect(fa).toEqual({ id: `evt_${failed.id.slice(4)}`, type: "render.failed", createdAt: failed.finishedAt, data: { renderId: failed.id, status: "failed", test: false, errorCode: failed.error!.code } });
    const bodies = b.received.map((x) => verify(eb.secret, x) as { id: string; type: string });
    expect(bodies.map((x) => x.type).sort()).toEqual(["render.failed", "render.succeeded"]);
    expect(bodies.find((x) => x.type === "render.failed")!.id).toBe(fa.id);
    expect(JSON.parse(c.received[0]!.body).data.renderId).toBe(ok.id);
    await nothingElseArrives(w, [a], "failed"); // a got nothing for the succeeded render
    await nothingElseArrives(w, [c], "succeeded"); // c got nothing for the failed one
  });

  it("a cancelled render sends render.cancelled", async () => {
    const w = await createTestWorkspace();
    const r = await ownReceiver();
    const e = await endpoint(w, r.url, ["render.cancelled"]);
    const id = await heldRender(w.id);
    expect((await api(`/v1/renders/${id}/cancel`, { key: w.key, method: "POST" })).status).toBe(200);
    const [got] = await r.waitFor(1);
    expect(verify(e.secret, got!)).toMatchObject({ type: "render.cancelled", data: { renderId: id, status: "cancelled", test: false } });
  });

  it("sends nothing to a disabled endpoint, nothing for renders that ended before the endpoint existed, and nothing for image renders", async () => {
    const w = await createTestWorkspace();
    const before = await renderPdf(w);
    const r = await ownReceiver();
    const disabledR = await ownReceiver();
    const e = await endpoint(w, r.url);
    const off = await endpoint(w, disabledR.url);
    await api(`/v1/webhook-endpoints/${off.id}`, { key: w.key, method: "PATCH", body: { enabled: false } });
    const png = await createRender(w.key, { document: { html: "<p>img</p>" }, format: "png", waitMs: 30_000 });
    expect(png.body.state).toBe("succeeded");
    const after = await renderPdf(w);
    const [got] = await r.waitFor(1);
    expect(JSON.parse(got!.body).data.renderId).toBe(after.id);
    const marker = await nothingElseArrives(w, [r]); // nothing for `before` or the image
    expect(disabledR.received).toHaveLength(0);
    expect((await deliveries(w, off.id)).items).toEqual([]);
    expect((await deliveries(w, e.id)).items.map((d) => d.renderId)).toEqual([marker, after.id]);
    expect(before.id).not.toBe(after.id);
    // Enabling it later does not send what it missed: the first it gets is the next render's.
    await api(`/v1/webhook-endpoints/${off.id}`, { key: w.key, method: "PATCH", body: { enabled: true } });
    await nothingElseArrives(w, [disabledR]);
  });
});

describe("retries", () => {
  it("503 then 200: retried on the schedule with the same webhook-id and a fresh signature", async () => {
    const w = await createTestWorkspace();
    const r = await ownReceiver((_req, i) => ({ status: i === 0 ? 503 : 200 }));
    const e = await endpoint(w, r.url);
    await renderPdf(w);
    const d = await waitForDelivery(w, e.id, (x) => x.attempts === 1);
    expect(d).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 503, lastError: "The endpoint answered HTTP 503" });
    expect(Date.parse(d.nextAttemptAt as string) - Date.parse(d.lastAttemptAt as string)).toBe(30_000);
    await new Promise((res) => setTimeout(res, 1200)); // the retry's timestamp is a later second
    await makeDue(d.id as string);
    const done = await waitForDelivery(w, e.id, (x) => x.status === "succeeded");
    expect(done).toMatchObject({ id: d.id, attempts: 2, lastStatusCode: 200 });
    expect(done).not.toHaveProperty("nextAttemptAt");
    expect(done).not.toHaveProperty("lastError");
    const [first, second] = r.received;
    expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    expect(Number(second!.headers["webhook-timestamp"])).toBeGreaterThan(Number(first!.headers["webhook-timestamp"]));
    expect(second!.headers["webhook-signature"]).not.toBe(first!.headers["webhook-signature"]);
    expect(verify(e.secret, second!)).toEqual(JSON.parse(first!.body));
  });

  it("a receiver that is down, then up: the failure names the connection error, the retry delivers", async () => {
    const w = await createTestWorkspace();
    const port = await freePort();
    const e = await endpoint(w, `http://127.0.0.1:${port}/hooks`);
    await renderPdf(w);
    const d = await waitForDelivery(w, e.id, (x) => x.attempts === 1);
    expect(d).toMatchObject({ status: "pending", lastError: "The request failed with connection error ECONNREFUSED" });
    expect(d).not.toHaveProperty("lastStatusCode");
    const r = await startReceiver(undefined, port);
    cleanups.push(() => r.close());
    await makeDue(d.id as string);
    await r.waitFor(1);
    expect(await waitForDelivery(w, e.id, (x) => x.status === "succeeded")).toMatchObject({ attempts: 2, lastStatusCode: 200 });
  });

  it("a 302 is not followed: a failure naming the status", async () => {
    const w = await createTestWorkspace();
    const target = await ownReceiver();
    const r = await ownReceiver(() => ({ status: 302, headers: { location: target.url } }));
    const e = await endpoint(w, r.url);
    await renderPdf(w);
    const d = await waitForDelivery(w, e.id, (x) => x.attempts === 1);
    expect(d).toMatchObject({ status: "pending", lastStatusCode: 302, lastError: expect.stringContaining("HTTP 302") });
    expect(d.lastError).toContain("redirects are not followed");
    expect(target.received).toHaveLength(0);
  });

  it("waits 30 s, 2 min, 5 min, 15 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h after each failed attempt, and fails after the 11th", async () => {
    const w = await createTestWorkspace();
    const r = await ownReceiver(() => ({ status: 500 }));
    const e = await endpoint(w, r.url);
    await renderPdf(w);
    let d = await waitForDelivery(w, e.id, (x) => x.attempts === 1);
    const waits = [(Date.parse(d.nextAttemptAt as string) - Date.parse(d.lastAttemptAt as string)) / 1000];
    for (let n = 2; n <= 10; n++) {
      await makeDue(d.id as string);
      d = await waitForDelivery(w, e.id, (x) => x.attempts === n);
      expect(d.status).toBe("pending");
      waits.push((Date.parse(d.nextAttemptAt as string) - Date.parse(d.lastAttemptAt as string)) / 1000);
    }
    expect(waits).toEqual([30, 120, 300, 900, 1800, 3600, 7200, 14400, 28800, 28800]);
    await makeDue(d.id as string);
    d = await waitForDelivery(w, e.id, (x) => x.attempts === 11);
    expect(d).toMatchObject({ status: "failed", attempts: 11, lastStatusCode: 500, lastError: "The endpoint answered HTTP 500" });
    expect(d).not.toHaveProperty("nextAttemptAt");
    expect(r.received).toHaveLength(11);
    expect(new Set(r.received.map((x) => x.headers["webhook-id"])).size).toBe(1);
    // Never sent again: the next render's event reaches the endpoint, and nothing before it.
    await makeDue(d.id as string);
    await nothingElseArrives(w, [r]);
  }, 120_000);

  it("an endpoint disabled before the retry fails the delivery, saying so", async () => {
    const w = await createTestWorkspace();
    const r = await ownReceiver(() => ({ status: 503 }));
    const e = await endpoint(w, r.url);
    await renderPdf(w);
    const d = await waitForDelivery(w, e.id, (x) => x.attempts === 1);
    await api(`/v1/webhook-endpoints/${e.id}`, { key: w.key, method: "PATCH", body: { enabled: false } });
    await makeDue(d.id as string);
    const failed = await waitForDelivery(w, e.id, (x) => x.status === "failed");
    expect(failed).toMatchObject({ attempts: 2, lastError: "The endpoint is disabled" });
    expect(failed).not.toHaveProperty("lastStatusCode");
    expect(r.received).toHaveLength(1);
  });

  it("a URL no longer allowed at the time of the attempt, or a secret that cannot be decrypted, fails the attempt and is retried", async () => {
    const w = await createTestWorkspace();
    const r = await ownReceiver(() => ({ status: 503 }));
    const e = await endpoint(w, r.url);
    await renderPdf(w);
    const d = await waitForDelivery(w, e.id, (x) => x.attempts === 1);
    // As if the name now resolved to the metadata service (the URL is checked at every attempt).
    await db().execute(sql`update webhook_endpoints set url = 'http://169.254.169.254/latest' where id = ${e.id}`);
    await makeDue(d.id as string);
    expect(await waitForDelivery(w, e.id, (x) => x.attempts === 2)).toMatchObject({
      status: "pending",
      lastError: "The URL is no longer an allowed destination: it points at a cloud metadata address (169.254.169.254)",
    });
    await db().execute(sql`update webhook_endpoints set url = ${r.url}, secret_sealed = 'c2VhbGVkIGJ5IGFub3RoZXIga2V5IGxvbmcgZW5vdWdoIHRvIGxvb2sgcmVhbA' where id = ${e.id}`);
    await makeDue(d.id as string);
    expect(await waitForDelivery(w, e.id, (x) => x.attempts === 3)).toMatchObject({ status: "pending", lastError: expect.stringContaining("cannot be decrypted") });
    expect(r.received).toHaveLength(1);
  });

  it("an answer later than 10 seconds is a failure", async () => {
    const w = await createTestWorkspace();
    const r = await ownReceiver(() => ({ status: 200, delayMs: 11_000 }));
    const e = await endpoint(w, r.url);
    await renderPdf(w);
    const d = await waitForDelivery(w, e.id, (x) => x.attempts === 1, 40_000);
    expect(d).toMatchObject({ status: "pending", lastError: "The endpoint did not respond within 10 seconds" });
  }, 90_000);
});

describe("an attempt recorded before it is sent", () => {
  it("shows the attempt while the endpoint has not answered, and a second run of the same attempt (a killed worker's job, run again) sends nothing", async () => {
    const w = await createTestWorkspace();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // The answer waits until the test has read the record made while the attempt was out.
    const server = await ownHeldReceiver(held);
    const e = await endpoint(w, server.url);
    await renderPdf(w);
    await server.arrived;
    const [during] = (await deliveries(w, e.id)).items;
    expect(during).toMatchObject({ status: "pending", attempts: 1, lastError: INTERRUPTED });
    // The job's retry after a kill expects the attempt count it was given (0): the number is taken, nothing is sent.
    await attemptScheduledDelivery(during!.id as string, 0);
    release();
    const after = await waitForDelivery(w, e.id, (x) => x.status === "succeeded");
    expect(after).toMatchObject({ attempts: 1, lastStatusCode: 200 });
    expect(after.lastError).toBeUndefined();
    expect(server.count()).toBe(1);
  }, 60_000);
});

/** A receiver that holds every answer until `held` settles; `arrived` settles at the first request. */
async function ownHeldReceiver(held: Promise<void>) {
  let count = 0;
  let arrivedNow: () => void = () => {};
  const arrived = new Promise<void>((resolve) => (arrivedNow = resolve));
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      count++;
      arrivedNow();
      void held.then(() => res.writeHead(200).end("ok"));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, arrived, count: () => count };
}

describe("secret rotation", () => {
  it("signs with both secrets for 24 hours after a rotation, then with the new one only", async () => {
    const w = await createTestWorkspace();
    const r = await ownReceiver();
    const e = await endpoint(w, r.url);
    const rotated = (await api(`/v1/webhook-endpoints/${e.id}/rotate-secret`, { key: w.key, method: "POST" })).body;
    await renderPdf(w);
    const [first] = await r.waitFor(1);
    expect((first!.headers["webhook-signature"] as string).split(" ")).toHaveLength(2);
    expect(() => verify(e.secret, first!)).not.toThrow();
    expect(() => verify(rotated.secret, first!)).not.toThrow();

    // 24 hours later (the clock of the rotation moved back by a day).
    await db().execute(sql`update webhook_endpoints set previous_secret_expires_at = now() - interval '1 second' where id = ${e.id}`);
    await renderPdf(w);
    const [, second] = await r.waitFor(2);
    expect((second!.headers["webhook-signature"] as string).split(" ")).toHaveLength(1);
    expect(() => verify(rotated.secret, second!)).not.toThrow();
    expect(() => verify(e.secret, second!)).toThrow();
  });

  it("a rotation sets the previous secret to expire 24 hours later", async () => {
    const w = await createTestWorkspace();
    const e = await endpoint(w, receiver.url);
    const before = Date.now();
    await api(`/v1/webhook-endpoints/${e.id}/rotate-secret`, { key: w.key, method: "POST" });
    const [row] = await db().execute<{ at: string }>(sql`select previous_secret_expires_at as at from webhook_endpoints where id = ${e.id}`);
    const at = Date.parse(new Date(row!.at).toISOString());
    expect(at).toBeGreaterThanOrEqual(before + 86_400_000 - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 86_400_000 + 1000);
  });
});

describe("retention", () => {
  it("deletes delivery records older than RETENTION_DAYS, and only those", async () => {
    const w = await createTestWorkspace();
    const e = await endpoint(w, receiver.url, ["render.succeeded"]);
    await renderPdf(w);
    const [fresh] = (await deliveries(w, e.id)).items.length ? (await deliveries(w, e.id)).items : [await waitForDelivery(w, e.id, () => true)];
    await db().execute(sql`
      insert into webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_type, render_id, payload, status, created_at)
      values ('msg_old_' || ${e.id}, ${w.id}, ${e.id}, 'evt_old', 'render.succeeded', 'rnd_old', '{}'::jsonb, 'succeeded', now() - interval '31 days')`);
    const { purgeExpiredDeliveries } = await import("./retention");
    expect(await purgeExpiredDeliveries()).toBeGreaterThanOrEqual(1);
    expect((await deliveries(w, e.id)).items.map((d) => d.id)).toEqual([fresh!.id]);
  });
});

describe("deliveries list, redeliver, test event, delete", () => {
  it("pages newest first", async () => {
    const w = await createTestWorkspace();
    const e = await endpoint(w, receiver.url, ["render.succeeded"]);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await renderPdf(w)).id);
    await expect.poll(async () => (await deliveries(w, e.id)).items.length, { timeout: 20_000 }).toBe(3);
    const p1 = await deliveries(w, e.id, "?limit=2");
    expect(p1.items.map((d) => d.renderId)).toEqual([ids[2], ids[1]]);
    expect(p1.nextCursor).toEqual(expect.any(String));
    const p2 = await deliveries(w, e.id, `?limit=2&cursor=${p1.nextCursor}`);
    expect(p2.items.map((d) => d.renderId)).toEqual([ids[0]]);
    expect(p2).not.toHaveProperty("nextCursor");
    expect((await api(`/v1/webhook-endpoints/${e.id}/deliveries?limit=0`, { key: w.key })).status).toBe(400);
  });

  it("redeliver sends again now with the same webhook-id and answers the record", async () => {
    const w = await createTestWorkspace();
    const r = await ownReceiver();
    const e = await endpoint(w, r.url);
    await renderPdf(w);
    const d = await waitForDelivery(w, e.id, (x) => x.status === "succeeded");
    const res = await api(`/v1/webhook-endpoints/${e.id}/deliveries/${d.id}/redeliver`, { key: w.key, method: "POST" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: d.id, status: "succeeded", attempts: 2, lastStatusCode: 200 });
    expect(r.received).toHaveLength(2);
    expect(r.received[1]!.headers["webhook-id"]).toBe(d.id);
    expect(verify(e.secret, r.received[1]!)).toEqual(JSON.parse(r.received[0]!.body));
    const other = await createTestWorkspace();
    expect((await api(`/v1/webhook-endpoints/${e.id}/deliveries/${d.id}/redeliver`, { key: other.key, method: "POST" })).status).toBe(404);
    expect((await api(`/v1/webhook-endpoints/${e.id}/deliveries/msg_nope/redeliver`, { key: w.key, method: "POST" })).status).toBe(404);
  });

  it("redelivering a failed delivery that fails again leaves it failed", async () => {
    const w = await createTestWorkspace();
    const r = await ownReceiver(() => ({ status: 410 }));
    const e = await endpoint(w, r.url);
    await renderPdf(w);
    const d = await waitForDelivery(w, e.id, (x) => x.attempts === 1);
    await db().execute(sql`update webhook_deliveries set status = 'failed', next_attempt_at = null where id = ${d.id as string}`);
    const res = await api(`/v1/webhook-endpoints/${e.id}/deliveries/${d.id}/redeliver`, { key: w.key, method: "POST" });
    expect(res.body).toMatchObject({ status: "failed", attempts: 2, lastStatusCode: 410, lastError: "The endpoint answered HTTP 410" });
    expect(res.body).not.toHaveProperty("nextAttemptAt");
  });

  it("send test event: one signed webhook.test event, not recorded and not a render", async () => {
    const w = await createTestWorkspace();
    const r = await ownReceiver();
    const e = await endpoint(w, r.url);
    const res = await api(`/v1/webhook-endpoints/${e.id}/test`, { key: w.key, method: "POST" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ delivered: true, statusCode: 200, eventId: expect.stringMatching(/^evt_/), webhookId: expect.stringMatching(/^msg_/), durationMs: expect.any(Number) });
    expect(r.received).toHaveLength(1);
    expect(verify(e.secret, r.received[0]!)).toEqual({ id: res.body.eventId, type: "webhook.test", createdAt: expect.any(String), data: { endpointId: e.id, test: true } });
    expect((await deliveries(w, e.id)).items).toEqual([]);
    expect((await api("/v1/renders", { key: w.key })).body.items).toEqual([]);

    const down = await endpoint(w, `http://127.0.0.1:${await freePort()}/x`);
    const failed = await api(`/v1/webhook-endpoints/${down.id}/test`, { key: w.key, method: "POST" });
    expect(failed.body).toMatchObject({ delivered: false, error: "The request failed with connection error ECONNREFUSED" });
  });

  it("deleting an endpoint discards its deliveries, pending ones too", async () => {
    const w = await createTestWorkspace();
    const r = await ownReceiver(() => ({ status: 500 }));
    const e = await endpoint(w, r.url);
    await renderPdf(w);
    await waitForDelivery(w, e.id, (x) => x.attempts === 1);
    expect((await api(`/v1/webhook-endpoints/${e.id}`, { key: w.key, method: "DELETE" })).status).toBe(200);
    const rows = await db().execute(sql`select id from webhook_deliveries where endpoint_id = ${e.id}`);
    expect(rows).toHaveLength(0);
  });
});
