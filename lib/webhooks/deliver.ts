import http from "node:http";
import https from "node:https";
import net from "node:net";
import { config } from "../config";
import { unseal } from "../crypto";
import type { WebhookDeliveryRow, WebhookEndpointRow } from "../db/schema";
import { db } from "../db/client";
import { log } from "../log";
import * as repo from "./repository";
import { MAX_ATTEMPTS, nextAttemptAfter, signDelivery } from "./sign";
import { checkWebhookUrl, systemResolver, type Resolver, type UrlPolicy } from "./urls";

/** spec: Limits > Other limits: the webhook answer deadline. */
export const ANSWER_DEADLINE_MS = 10_000;
/** Purpose of the sealed signing secrets (lib/crypto.ts). */
export const SECRET_PURPOSE = "webhook-endpoint-secret";

export function urlPolicy(): UrlPolicy {
  const c = config();
  return { hosted: c.DEPLOYMENT_MODE === "hosted", allowPrivate: c.WEBHOOK_ALLOW_PRIVATE_NETWORKS };
}

/** The lastError of an answer that did not come within the deadline. */
const LATE = `The endpoint did not respond within ${ANSWER_DEADLINE_MS / 1000} seconds`;

/** The outcome of one POST: a 2xx in time, or the lastError form of the spec. */
export type PostOutcome = { ok: boolean; statusCode?: number; error?: string };

/** postOnce's outcome, which also says whether the connection was never made (nothing reached the receiver). */
type PostResult = PostOutcome & { unreached?: boolean };

/** Pooled connections per endpoint origin and checked address (postOnce). */
const agents = new Map<string, http.Agent>();
const MAX_AGENTS = 200;
/** An idle pooled connection is closed after this long: below the 5 s idle timeout of Node's and most servers. */
const IDLE_SOCKET_MS = 4_000;
/** An answer's body is read (so the connection can serve the next POST) up to this size and time, else the connection is dropped. */
const MAX_ANSWER_BODY = 64 * 1024;
const ANSWER_BODY_MS = 2_000;

/**
 * The keep-alive agent for `url`'s origin reached at `address`. why: a burst of deliveries to one
 * receiver opened a connection per POST, and the connects and their teardown were a third of the
 * worker's CPU per delivery, taken from the renders beside them. Keyed by the checked address, so
 * a name that now resolves elsewhere gets new connections that go where the check allowed.
 */
function agentFor(url: URL, address: string): http.Agent {
  const key = `${url.protocol}//${url.host}@${address}`;
  const found = agents.get(key);
  if (found) {
    agents.delete(key); // most recently used last
    agents.set(key, found);
    return found;
  }
  if (agents.size >= MAX_AGENTS) {
    const [oldest] = agents.keys();
    agents.get(oldest!)!.destroy();
    agents.delete(oldest!);
  }
  const options = { keepAlive: true, maxSockets: 16, maxFreeSockets: 16, timeout: IDLE_SOCKET_MS, scheduling: "lifo" as const };
  const agent = url.protocol === "https:" ? new https.Agent(options) : new http.Agent(options);
  agents.set(key, agent);
  return agent;
}

/**
 * One POST of `body` to `url`, connecting only to `address` (an address the URL check passed:
 * DNS is not asked again, so a rebinding name cannot move the connection elsewhere; https still
 * verifies the certificate against the host name). Redirects are not followed: a 3xx is a
 * failure. The whole answer's status line and headers must arrive within the deadline. The
 * connection is kept for the next POST to the same origin and address when the answer's body
 * (read and discarded) ends soon; it is dropped on errors, deadlines and long bodies. With
 * `connectMs`, a connection not made by then is given up (`unreached`), so the caller can try
 * the host's next address.
 */
export function postOnce(
  url: URL,
  address: string,
  headers: Record<string, string>,
  body: string,
  opts: { /** performance.now() by which the answer must have come */ deadline?: number; pooled?: boolean; connectMs?: number } = {},
): Promise<PostResult> {
  const deadline = opts.deadline ?? performance.now() + ANSWER_DEADLINE_MS;
  const { pooled = true, connectMs } = opts;
  const family = net.isIPv6(address) ? 6 : 4;
  const lookup = ((_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (options?.all) cb(null, [{ address, family }]);
    else cb(null, address, family);
  }) as unknown as net.LookupFunction;
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    let connected = false;
    const done = (o: PostResult, drop: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(connectTimer);
      if (drop) req.destroy();
      resolve(o);
    };
    const req = client.request(
      url,
      { method: "POST", headers: { ...headers, "content-length": String(Buffer.byteLength(body)) }, lookup, agent: pooled ? agentFor(url, address) : false },
      (res) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        const bodyTimer = setTimeout(() => res.destroy(), ANSWER_BODY_MS);
        res.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BODY) res.destroy();
        });
        res.on("close", () => clearTimeout(bodyTimer));
        res.on("error", () => undefined); // the outcome is the status line's; a cut body only drops the connection
        if (status >= 200 && status < 300) done({ ok: true, statusCode: status }, false);
        else if (status >= 300 && status < 400) done({ ok: false, statusCode: status, error: `The endpoint answered HTTP ${status}, a redirect (redirects are not followed)` }, false);
        else done({ ok: false, statusCode: status, error: `The endpoint answered HTTP ${status}` }, false);
      },
    );
    const timer = setTimeout(() => done({ ok: false, error: LATE, unreached: !connected }, true), Math.max(0, deadline - performance.now()));
    const connectTimer =
      connectMs === undefined
        ? undefined
        : setTimeout(() => {
            if (!connected) done({ ok: false, error: `The request failed with connection error ETIMEDOUT`, unreached: true }, true);
          }, connectMs);
    req.on("socket", (socket) => {
      if (!socket.connecting) connected = true;
      else socket.once("connect", () => void (connected = true));
    });
    req.on("error", (err: NodeJS.ErrnoException) => {
      // why: a pooled connection the receiver closed just as this POST went out; nothing reached it, so send again on a new one.
      if (req.reusedSocket && err.code === "ECONNRESET" && !settled) {
        settled = true;
        clearTimeout(timer);
        clearTimeout(connectTimer);
        return resolve(postOnce(url, address, headers, body, { deadline, pooled: false, connectMs }));
      }
      done({ ok: false, error: `The request failed with connection error ${err.code ?? err.name}`, unreached: !connected }, true);
    });
    req.end(body);
  });
}

/** The secrets that sign now: the current one, and the previous one until 24 hours after a rotation. */
export function activeSecrets(endpoint: WebhookEndpointRow, now: Date): string[] | undefined {
  const current = unsealSecret(endpoint.secretSealed);
  if (!current) return undefined;
  const secrets = [current];
  if (endpoint.previousSecretSealed && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
    const previous = unsealSecret(endpoint.previousSecretSealed);
    if (previous) secrets.push(previous);
  }
  return secrets;
}

/** Unsealed secrets by their sealed text (a rotation seals a new text), so a burst of deliveries decrypts each once. */
const unsealed = new Map<string, string | undefined>();

function unsealSecret(sealed: string): string | undefined {
  if (unsealed.has(sealed)) return unsealed.get(sealed);
  const plain = unseal(SECRET_PURPOSE, sealed)?.toString("utf8");
  if (unsealed.size >= MAX_AGENTS) unsealed.delete(unsealed.keys().next().value!);
  unsealed.set(sealed, plain);
  return plain;
}

export const SECRET_UNREADABLE = "The endpoint's signing secret cannot be decrypted (was SECRET_KEY changed?); rotate the secret";

/** With another checked address left to try, a connection not made within this long is given up for it. */
const CONNECT_TRY_MS = 3_000;

/**
 * Signs and sends `body` as delivery `id` to the endpoint now: the URL is checked again (and
 * resolved), the timestamp is this attempt's. The host's checked addresses are tried in turn
 * while a connection cannot be made (refused, unreachable, or not made within CONNECT_TRY_MS),
 * all within the one answer deadline; nothing reached the receiver before the next is tried, so
 * it never gets the event twice. Never throws.
 */
export async function sendSigned(
  endpoint: WebhookEndpointRow,
  id: string,
  body: string,
  opts: { now?: Date; resolve?: Resolver } = {},
): Promise<PostOutcome> {
  const now = opts.now ?? new Date();
  const secrets = activeSecrets(endpoint, now);
  if (!secrets) return { ok: false, error: SECRET_UNREADABLE };
  const check = await checkWebhookUrl(endpoint.url, urlPolicy(), opts.resolve ?? systemResolver);
  if (!check.ok) return { ok: false, error: `The URL is no longer an allowed destination: it ${check.reason}` };
  const headers = signDelivery(id, body, secrets, now);
  const deadline = performance.now() + ANSWER_DEADLINE_MS;
  let outcome: PostResult = { ok: false, error: LATE };
  for (const [i, address] of check.addresses.entries()) {
    if (performance.now() >= deadline) break;
    const last = i === check.addresses.length - 1;
    outcome = await postOnce(check.url, address, headers, body, { deadline, connectMs: last ? undefined : CONNECT_TRY_MS });
    if (!outcome.unreached) break;
  }
  const { unreached: _, ...result } = outcome;
  return result;
}

/** The event body as sent: the stored payload with its fields in the spec's order. */
export function eventBody(payload: Record<string, unknown>): string {
  const data = (payload.data ?? {}) as Record<string, unknown>;
  const ordered = {
    id: payload.id,
    type: payload.type,
    createdAt: payload.createdAt,
    data: { renderId: data.renderId, status: data.status, test: data.test, ...(data.errorCode === undefined ? {} : { errorCode: data.errorCode }) },
  };
  return JSON.stringify(ordered);
}

type Found = NonNullable<Awaited<ReturnType<typeof repo.findForAttempt>>>;
type AttemptSet = repo.AttemptRecord["set"];

/** What an attempt says until its outcome is recorded: under way, or its worker stopped while it was out. */
export const INTERRUPTED =
  "No outcome recorded: the attempt is under way, or its worker stopped before the endpoint answered (the endpoint may have received it)";

/**
 * What to record of attempt number `attempts` made at `at`: its outcome, and whether and when the
 * next attempt is due (spec retry schedule; a disabled endpoint or a redelivery of an ended
 * delivery is never tried again).
 */
function attemptSet(found: Found, attempts: number, at: Date, outcome: PostOutcome, redelivery: boolean): AttemptSet {
  const { delivery, endpoint } = found;
  let status: WebhookDeliveryRow["status"];
  let nextAttemptAt: Date | null = null;
  if (outcome.ok) status = "succeeded";
  else if (!endpoint.enabled) status = "failed"; // spec: States > Webhook delivery: never sent later
  else if (redelivery && delivery.status !== "pending") status = "failed";
  else {
    const next = attempts < MAX_ATTEMPTS ? nextAttemptAfter(attempts, at) : undefined;
    status = next ? "pending" : "failed";
    nextAttemptAt = next ?? null;
  }
  return {
    status,
    // why not the previous code when this attempt got none: lastStatusCode and lastError describe the same attempt.
    lastStatusCode: outcome.statusCode ?? null,
    lastError: outcome.ok ? null : outcome.error!,
    lastAttemptAt: at,
    nextAttemptAt,
  };
}

/** How an attempt claims its number and records its outcome: one statement each, or batched with others (the worker's). */
type Recorder = {
  /** Records attempt `attempts + 1` as `set` if no other attempt was recorded since `attempts` was read; whether it was. */
  claim: (id: string, attempts: number, set: AttemptSet) => Promise<boolean>;
  /** Records the outcome of the attempt claimed at `set.lastAttemptAt`, if no later attempt was recorded since. */
  outcome: (id: string, attempts: number, set: AttemptSet) => Promise<void>;
};

/**
 * The attempt itself, recorded before it is sent: the delivery's next attempt number is claimed
 * (with the outcome INTERRUPTED and the next attempt scheduled as for a failure) before any byte
 * goes out, then the outcome replaces that. why: recorded only after the answer, an attempt whose
 * worker was killed while it was out was sent again by the job's retry and counted once (41 events
 * arrived for 40 recorded attempts); claimed first, every send is an attempt in the log, and the
 * job's retry, or a second job of the same attempt, finds the number taken and sends nothing.
 * Returns false when there was nothing to attempt (another attempt got there first, or a scheduled
 * attempt of a delivery no longer pending).
 */
async function attemptOnce(found: Found, expectedAttempts: number, recorder: Recorder, opts: { redelivery?: boolean; now?: () => Date }): Promise<boolean> {
  const clock = opts.now ?? (() => new Date());
  const redelivery = !!opts.redelivery;
  const { delivery, endpoint } = found;
  if (delivery.attempts !== expectedAttempts) return false; // another attempt got there first
  if (!redelivery && delivery.status !== "pending") return false;
  const attempts = delivery.attempts + 1;
  const at = clock();
  if (!endpoint.enabled) return recorder.claim(delivery.id, delivery.attempts, attemptSet(found, attempts, at, { ok: false, error: "The endpoint is disabled" }, redelivery));
  if (!(await recorder.claim(delivery.id, delivery.attempts, attemptSet(found, attempts, at, { ok: false, error: INTERRUPTED }, redelivery)))) return false;
  const outcome = await sendSigned(endpoint, delivery.id, eventBody(delivery.payload), { now: at });
  const set = attemptSet(found, attempts, at, outcome, redelivery);
  if (!outcome.ok) log().info({ deliveryId: delivery.id, endpointId: endpoint.id, attempts, status: set.status, error: outcome.error }, "webhook delivery attempt failed");
  await recorder.outcome(delivery.id, attempts, set);
  return true;
}

/** One statement per record: redeliveries, which a person waits for. */
const oneByOne: Recorder = {
  claim: async (id, attempts, set) => (await repo.recordAttempt(db(), id, attempts, set)) !== undefined,
  outcome: async (id, attempts, set) => void (await repo.recordOutcomes(db(), [{ id, attempts, set }])),
};

/**
 * One attempt of a delivery (a scheduled one from the worker, or a redelivery), made only if no
 * other attempt was recorded since `expectedAttempts` was read. A scheduled attempt of a delivery
 * no longer pending does nothing. Failure schedules the next attempt from this one's time (spec
 * retry schedule), or fails the delivery after the 11th; a redelivery of an ended delivery is one
 * attempt: it ends succeeded or failed again.
 */
export async function attemptDelivery(
  deliveryId: string,
  expectedAttempts: number,
  opts: { redelivery?: boolean; now?: () => Date } = {},
): Promise<WebhookDeliveryRow | undefined> {
  const found = await repo.findForAttempt(db(), deliveryId);
  if (!found) return undefined; // the endpoint (and its deliveries) was deleted
  await attemptOnce(found, expectedAttempts, oneByOne, opts);
  return (await repo.findForAttempt(db(), deliveryId))?.delivery;
}

/**
 * Collects the calls made within `waitMs` (at most `max`) and serves them with one call of `run`,
 * whose answers are in the order of the items.
 */
function batcher<I, O>(run: (items: I[]) => Promise<O[]>, waitMs: number, max: number): (item: I) => Promise<O> {
  let queue: { item: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = queue;
    queue = [];
    run(batch.map((p) => p.item)).then(
      (outs) => batch.forEach((p, i) => p.resolve(outs[i]!)),
      (err: unknown) => batch.forEach((p) => p.reject(err)),
    );
  };
  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (queue.length >= max) flush();
      else timer ??= setTimeout(flush, waitMs);
    });
}

/** The deliveries the worker's attempts started within a millisecond, read in one statement. */
const findScheduled = batcher(async (ids: string[]) => {
  const rows = await repo.findManyForAttempt(db(), [...new Set(ids)]);
  const byId = new Map(rows.map((r) => [r.delivery.id, r]));
  return ids.map((id) => byId.get(id));
}, 1, 64);

/** The worker's attempts that claimed their numbers within 5 ms, recorded in one statement. */
const claimScheduled = batcher(async (records: repo.AttemptRecord[]) => {
  const recorded = await repo.recordAttempts(db(), records);
  return records.map((r) => recorded.has(r.id));
}, 5, 64);

/** The worker's attempts that ended within 20 ms, their outcomes recorded in one statement. */
const recordScheduled = batcher(async (records: repo.AttemptRecord[]) => {
  await repo.recordOutcomes(db(), records);
  return records.map(() => undefined);
}, 20, 64);

const batched: Recorder = {
  claim: (id, attempts, set) => claimScheduled({ id, attempts, set }),
  outcome: (id, attempts, set) => recordScheduled({ id, attempts, set }),
};

/**
 * A scheduled attempt of the worker's pool: attemptDelivery, with the reads, the claims and the
 * outcomes of attempts running at the same time batched into one statement each.
 *
 * why: a burst of deliveries (1,000 queued at once) ran a statement per attempt and step beside
 * the renders; one per batch cost the database and the worker a fraction of that. A claim waits
 * at most 5 ms for others to join it (it delays the send), an outcome at most 20 ms.
 */
export async function attemptScheduledDelivery(deliveryId: string, expectedAttempts: number): Promise<void> {
  const found = await findScheduled(deliveryId);
  if (!found) return; // the endpoint (and its deliveries) was deleted
  await attemptOnce(found, expectedAttempts, batched, {});
}
