import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/lib/db/ids";
import { privateDatabase, type PrivateDatabase } from "@/lib/testing/database";
import * as notices from "./notices";
import * as repo from "./repository";
import * as statements from "./statements";

/**
 * The queue statements against a database of their own: no worker runs there, so what a statement
 * claims is exactly what the test queued.
 */
let own: PrivateDatabase;
let client: postgres.Sql;
let listener: postgres.Sql;
let db: PrivateDatabase["db"];
let workspaceId: string;

beforeAll(async () => {
  own = await privateDatabase("queue");
  ({ client, db, workspaceId } = own);
  listener = postgres(own.url, { max: 1, onnotice: () => {} });
});

afterAll(async () => {
  await Promise.all([own?.close(), listener?.end()]);
});

const LEASE = 15_000;

async function queue(html: string) {
  const id = newId("rnd");
  await statements.insertRender(db, { id, workspaceId, test: false, source: "document", format: "pdf", options: {} }, { document: { html } });
  return id;
}

/** Collects the payloads of a channel; `next()` waits for the next one. */
async function collect(channel: string) {
  const seen: string[] = [];
  const waiting: ((p: string) => void)[] = [];
  const sub = await listener.listen(channel, (p) => {
    const w = waiting.shift();
    if (w) w(p);
    else seen.push(p);
  });
  return {
    next: () => (seen.length ? Promise.resolve(seen.shift()!) : new Promise<string>((resolve) => waiting.push(resolve))),
    stop: () => sub.unlisten(),
  };
}

const succeeded = { state: "succeeded", pageCount: 2, outputBytes: 1234, durationMs: 56, fileKey: "renders/x.pdf" } as const;

describe("render queue statements", () => {
  it("ends an attempt and claims the oldest queued render with its input in the same statement, until the queue is empty", async () => {
    const ids = [await queue("<p>a</p>"), await queue("<p>b</p>"), await queue("<p>c</p>")];
    const first = await statements.claimNextRender(db, LEASE);
    expect(first).toMatchObject({ id: ids[0], state: "processing", attempts: 1, payload: { document: { html: "<p>a</p>" } } });

    const a = await statements.endAttempt(db, ids[0]!, 1, succeeded, LEASE);
    expect(a.ended).toBe(true);
    expect(a.next).toMatchObject({ id: ids[1], state: "processing", attempts: 1, workspaceId, format: "pdf", payload: { document: { html: "<p>b</p>" } } });
    expect(a.next!.startedAt).toBeInstanceOf(Date);
    expect(a.next!.leaseExpiresAt!.getTime()).toBeGreaterThan(Date.now());
    // What the statement returned is what the table holds.
    const b = await repo.findRender(db, workspaceId, ids[1]!);
    expect({ ...a.next, payload: undefined, queuedMs: undefined }).toEqual({ ...b, payload: undefined });
    expect(a.next!.queuedMs).toBeGreaterThanOrEqual(0);

    const failed = await statements.endAttempt(db, ids[1]!, 1, { state: "failed", error: { code: "RENDER_FAILED", diagnostic: "document_invalid", message: "no" } }, LEASE);
    expect(failed.next?.id).toBe(ids[2]);
    const last = await statements.endAttempt(db, ids[2]!, 1, succeeded, LEASE);
    expect(last).toEqual({ ended: true, next: undefined });
    // An attempt that no longer holds its render ends nothing, and claims nothing without a lease.
    const again = await statements.endAttempt(db, ids[2]!, 1, succeeded);
    expect(again).toEqual({ ended: false, next: undefined });

    expect((await repo.findRender(db, workspaceId, ids[0]!))?.state).toBe("succeeded");
    expect((await repo.findRender(db, workspaceId, ids[1]!))?.state).toBe("failed");
    expect((await repo.findRender(db, workspaceId, ids[2]!))?.state).toBe("succeeded");
  });

  it("never claims a render without a lease, and leaves queued renders queued", async () => {
    const id = await queue("<p>stay</p>");
    const other = await queue("<p>first</p>");
    const claimed = await statements.claimNextRender(db, LEASE);
    expect(claimed?.id).toBe(id);
    expect(await statements.endAttempt(db, id, 1, succeeded)).toEqual({ ended: true, next: undefined });
    expect((await repo.findRender(db, workspaceId, other))?.state).toBe("queued");
    expect((await statements.claimNextRender(db, LEASE))?.id).toBe(other);
    await statements.endAttempt(db, other, 1, succeeded);
  });

  it("deletes the input in the statement that ends a render, however it ends, and keeps it for another attempt", async () => {
    const inputOf = async (id: string) => (await client`select payload from render_inputs where render_id = ${id}`)[0]?.payload;
    const claim = async (id: string) => expect((await statements.claimNextRender(db, LEASE))?.id).toBe(id);

    const ok = await queue("<p>ok</p>");
    await claim(ok);
    await statements.endAttempt(db, ok, 1, succeeded);
    const failed = await queue("<p>failed</p>");
    await claim(failed);
    await statements.endAttempt(db, failed, 1, { state: "failed", error: { code: "LIMIT_EXCEEDED", diagnostic: "max_pages", message: "pages" } });

    // A transient failure puts the render back in the queue: the next attempt needs the input.
    const retried = await queue("<p>again</p>");
    await claim(retried);
    await statements.requeueRender(db, retried, 1);
    expect(await inputOf(retried)).toEqual({ document: { html: "<p>again</p>" } });
    expect(await statements.claimNextRender(db, LEASE)).toMatchObject({ id: retried, attempts: 2, payload: { document: { html: "<p>again</p>" } } });
    await statements.endAttempt(db, retried, 2, succeeded);

    const cancelledQueued = await queue("<p>cancelled while queued</p>");
    expect(await statements.endActiveRender(db, { id: cancelledQueued, workspaceId }, { state: "cancelled" })).toMatchObject({ state: "cancelled" });
    const cancelledProcessing = await queue("<p>cancelled while processing</p>");
    await claim(cancelledProcessing);
    expect(await statements.endActiveRender(db, { id: cancelledProcessing, workspaceId }, { state: "cancelled" })).toMatchObject({ state: "cancelled" });
    const abandoned = await queue("<p>abandoned</p>");
    await claim(abandoned);
    const error = { code: "RENDER_FAILED", diagnostic: "render_process_exited", message: "exited" };
    expect(await statements.endRender(db, { id: abandoned }, ["processing"], { state: "failed", error })).toMatchObject({ state: "failed", error });

    const ended = [ok, failed, retried, cancelledQueued, cancelledProcessing, abandoned];
    for (const id of ended) expect(await inputOf(id), id).toBeUndefined();
    // The records keep what the API shows.
    const states = await Promise.all(ended.map(async (id) => (await repo.findRender(db, workspaceId, id))?.state));
    expect(states).toEqual(["succeeded", "failed", "succeeded", "cancelled", "cancelled", "failed"]);
    expect(await repo.findRender(db, workspaceId, ok)).toMatchObject({ pageCount: 2, outputBytes: 1234, fileKey: "renders/x.pdf", finishedAt: expect.any(Date) });
  });

  it("requeues only for the attempt that holds the render: a late requeue of an earlier attempt changes nothing", async () => {
    const id = await queue("<p>requeued once</p>");
    expect(await statements.claimNextRender(db, LEASE)).toMatchObject({ id, attempts: 1 });
    expect(await statements.requeueRender(db, id, 1)).toMatchObject({ id, state: "queued", attempts: 1 });
    const second = await statements.claimNextRender(db, LEASE);
    expect(second).toMatchObject({ id, state: "processing", attempts: 2 });
    const held = await repo.findRender(db, workspaceId, id);

    // Attempt 1's worker (or a reaper that read the row before the second claim) requeues late.
    expect(await statements.requeueRender(db, id, 1)).toBeUndefined();
    expect(await repo.findRender(db, workspaceId, id)).toEqual(held);
    // Nothing was queued for another worker to claim alongside attempt 2.
    expect(await statements.claimNextRender(db, LEASE)).toBeUndefined();
    expect(await statements.endAttempt(db, id, 2, succeeded)).toEqual({ ended: true, next: undefined });
  });

  it("counts each end once in the usage row of its UTC day, whoever ends it", async () => {
    const usage = async () =>
      (
        await client`select coalesce(sum(renders_succeeded), 0)::int as succeeded, coalesce(sum(renders_failed), 0)::int as failed,
          coalesce(sum(renders_cancelled), 0)::int as cancelled, coalesce(sum(pages), 0)::int as pages, coalesce(sum(output_bytes), 0)::int as bytes,
          array_agg(day::text) as days
          from usage_days where workspace_id = ${workspaceId}`
      )[0]!;
    const before = await usage();
    const ok = await queue("<p>counted</p>");
    await statements.claimNextRender(db, LEASE);
    await statements.endAttempt(db, ok, 1, succeeded);
    const cancelled = await queue("<p>cancelled</p>");
    await statements.endActiveRender(db, { id: cancelled, workspaceId }, { state: "cancelled" });
    const failed = await queue("<p>failed</p>");
    await statements.claimNextRender(db, LEASE);
    await statements.endRender(db, { id: failed }, ["processing"], { state: "failed", error: { code: "RENDER_FAILED", diagnostic: "render_process_exited", message: "x" } });
    // Ending again counts nothing.
    await statements.endActiveRender(db, { id: cancelled, workspaceId }, { state: "cancelled" });
    await statements.endAttempt(db, ok, 1, succeeded);

    const after = await usage();
    expect(after).toMatchObject({
      succeeded: before.succeeded + 1,
      failed: before.failed + 1,
      cancelled: before.cancelled + 1,
      pages: before.pages + succeeded.pageCount,
      bytes: before.bytes + succeeded.outputBytes,
    });
    for (const id of [ok, cancelled, failed]) {
      const { finishedAt } = (await repo.findRender(db, workspaceId, id))!;
      expect(after.days).toContain(finishedAt!.toISOString().slice(0, 10));
    }
  });

  it("announces an ended render with the fields a read would show, or with its id alone when they do not fit", async () => {
    const ended = await collect(notices.RENDER_ENDED_CHANNEL);
    try {
      const id = await queue("<p>notice</p>");
      await statements.claimNextRender(db, LEASE);
      await statements.endAttempt(db, id, 1, succeeded);
      const notice = notices.parseEndedNotice(await ended.next());
      const row = await repo.findRender(db, workspaceId, id);
      const { state, error, warnings, pageCount, outputBytes, durationMs, fileKey, startedAt, finishedAt, updatedAt } = row!;
      expect(notice).toEqual({ id, fields: { state, error, warnings, pageCount, outputBytes, durationMs, fileKey, startedAt, finishedAt, updatedAt } });
      expect(warnings).toBeNull();

      // A success with warnings: the record keeps them and the notice carries them.
      const warned = await queue("<p>warned</p>");
      await statements.claimNextRender(db, LEASE);
      const glyphs = [{ diagnostic: "font_glyphs_missing", message: "No font covers 1 character: U+E000" }];
      await statements.endAttempt(db, warned, 1, { ...succeeded, warnings: glyphs });
      expect(notices.parseEndedNotice(await ended.next()).fields?.warnings).toEqual(glyphs);
      expect((await repo.findRender(db, workspaceId, warned))?.warnings).toEqual(glyphs);

      // An error message that would not fit into one notification (8000 bytes): the id only.
      const long = await queue("<p>long error</p>");
      await statements.claimNextRender(db, LEASE);
      const message = "x".repeat(10_000);
      await statements.endAttempt(db, long, 1, { state: "failed", error: { code: "RENDER_FAILED", diagnostic: "render_process_exited", message } });
      expect(notices.parseEndedNotice(await ended.next())).toEqual({ id: long });
      expect((await repo.findRender(db, workspaceId, long))?.error?.message).toBe(message);
    } finally {
      await ended.stop();
    }
  });

  it("reads a bare id, as a process of an older version announces an end, as a notice without fields", () => {
    expect(notices.parseEndedNotice("rnd_abc")).toEqual({ id: "rnd_abc" });
  });

  it("tells workers to stop a render ended by a cancel, and announces it as ended", async () => {
    const ended = await collect(notices.RENDER_ENDED_CHANNEL);
    const stop = await collect(notices.RENDER_STOP_CHANNEL);
    try {
      const id = await queue("<p>cancel</p>");
      await statements.claimNextRender(db, LEASE);
      const cancelled = await db.transaction((tx) => statements.endActiveRender(tx, { id, workspaceId }, { state: "cancelled" }));
      expect(cancelled?.state).toBe("cancelled");
      expect(await stop.next()).toBe(id);
      expect(notices.parseEndedNotice(await ended.next())).toMatchObject({ id, fields: { state: "cancelled", finishedAt: cancelled!.finishedAt } });
      // The attempt that was cancelled ends nothing afterwards.
      expect((await statements.endAttempt(db, id, 1, succeeded)).ended).toBe(false);
    } finally {
      await Promise.all([ended.stop(), stop.stop()]);
    }
  });
});
