/**
 * Storage destinations (spec: Storage destination; Endpoints > Storage destinations): the
 * workspace's S3-compatible buckets that renders upload into. Every change that touches the
 * connection runs the test upload first and saves nothing when it fails; secrets are sealed with
 * a key of their own purpose and never returned, logged or audited.
 */
import { recordAudit } from "../audit";
import { requireScope, type Ctx } from "../auth/context";
import { unseal, seal } from "../crypto";
import { db, withTx, type Executor } from "../db/client";
import { newId } from "../db/ids";
import { AppError, badRequest, conflict, invalidValue, notFound } from "../errors";
import * as repo from "./repository";
import { assertAllowedEndpoint, SECRET_PURPOSE, testObjectKey, testUpload, type Connection } from "./s3";
import type { CreateDestinationInput, RenderDestinationInput, StorageDestination, UpdateDestinationInput } from "./schemas";

export { CreateDestinationInput, RenderDestinationInput, UpdateDestinationInput, KeyPath, type StorageDestination } from "./schemas";

/** spec: Limits > Other limits. */
export const MAX_DESTINATIONS = 10;
/** spec: Render destination > path: the whole key (prefix + / + path) at most 1,024 bytes. */
export const MAX_KEY_BYTES = 1024;

/** What the test upload did, shown beside the destination when one ran (create, and changes other than a rename). */
export type TestUpload = { objectKey: string; deleted: boolean };

function toPublic(r: repo.StorageDestinationRow): StorageDestination {
  const d: StorageDestination = {
    id: r.id,
    name: r.name,
    region: r.region,
    bucket: r.bucket,
    forcePathStyle: r.forcePathStyle,
    accessKeyId: r.accessKeyId,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
  if (r.endpoint !== null) d.endpoint = r.endpoint;
  if (r.prefix !== null) d.prefix = r.prefix;
  return d;
}

/** The saved secret in the clear, for one call; 400 when it no longer opens (SECRET_KEY changed). */
function openSecret(r: repo.StorageDestinationRow): string {
  const plain = unseal(SECRET_PURPOSE, r.secretAccessKeySealed);
  if (!plain) throw invalidValue("secretAccessKey", "the saved secret cannot be decrypted (was SECRET_KEY changed?); send secretAccessKey again");
  return plain.toString("utf8");
}

const nameTaken = (name: string) =>
  conflict(`A storage destination named ${name} already exists (names are unique ignoring letter case)`, { details: [{ path: "name", message: "is already used by another destination" }] });
const tooMany = () => conflict(`A workspace holds at most ${MAX_DESTINATIONS} storage destinations; delete one first`);

/** Runs the test upload; 400 BAD_REQUEST with the store's reason (never the secret) when the write fails. */
async function runTestUpload(c: Connection, prefix: string | null): Promise<TestUpload> {
  const r = await testUpload(c, prefix);
  if (!r.ok) {
    const message = `The test upload of ${testObjectKey(prefix)} to the bucket ${c.bucket} failed: ${r.failure.message}`;
    throw badRequest(message, [{ ...(r.failure.field ? { path: r.failure.field } : {}), message: r.failure.message }]);
  }
  return { objectKey: testObjectKey(prefix), deleted: r.deleted };
}

/** All destinations of the workspace, by name, never with secrets (destination:manage). */
export async function listDestinations(ctx: Ctx): Promise<{ items: StorageDestination[] }> {
  requireScope(ctx, "destination:manage");
  return { items: (await repo.listDestinations(db(), ctx.workspaceId)).map(toPublic) };
}

/** One destination, without its secret; 404 for unknown ids and other workspaces' ids alike. */
export async function getDestination(ctx: Ctx, id: string): Promise<StorageDestination> {
  requireScope(ctx, "destination:manage");
  const r = await repo.findDestination(db(), ctx.workspaceId, id);
  if (!r) throw notFound("storage destination", id);
  return toPublic(r);
}

/**
 * Saves a destination after a successful test upload (409 over 10 or on a name clash, checked
 * before the upload and again under the workspace's lock). Only the sealed secret is stored.
 */
export async function createDestination(ctx: Ctx, input: CreateDestinationInput): Promise<StorageDestination & { testUpload: TestUpload }> {
  requireScope(ctx, "destination:manage");
  if (input.endpoint !== undefined) await assertAllowedEndpoint(input.endpoint);
  // why before the upload too: a refusal should not wait for a round trip to the bucket.
  if ((await repo.countDestinations(db(), ctx.workspaceId)) >= MAX_DESTINATIONS) throw tooMany();
  if (await repo.findDestinationByName(db(), ctx.workspaceId, input.name)) throw nameTaken(input.name);
  const connection: Connection = {
    endpoint: input.endpoint ?? null,
    region: input.region,
    bucket: input.bucket,
    forcePathStyle: input.forcePathStyle,
    accessKeyId: input.accessKeyId,
    secretAccessKey: input.secretAccessKey,
  };
  const test = await runTestUpload(connection, input.prefix ?? null);
  return withTx(async (tx) => {
    await repo.lockDestinations(tx, ctx.workspaceId);
    if ((await repo.countDestinations(tx, ctx.workspaceId)) >= MAX_DESTINATIONS) throw tooMany();
    if (await repo.findDestinationByName(tx, ctx.workspaceId, input.name)) throw nameTaken(input.name);
    const row = await repo.insertDestination(tx, {
      id: newId("dst"),
      workspaceId: ctx.workspaceId,
      name: input.name,
      endpoint: connection.endpoint,
      region: input.region,
      bucket: input.bucket,
      prefix: input.prefix ?? null,
      forcePathStyle: input.forcePathStyle,
      accessKeyId: input.accessKeyId,
      secretAccessKeySealed: seal(SECRET_PURPOSE, Buffer.from(input.secretAccessKey, "utf8")),
    });
    await recordAudit(tx, ctx, "storage_destination.create", { type: "storage_destination", id: row.id }, auditView(row));
    return { ...toPublic(row), testUpload: test };
  });
}

/** What the audit log keeps of a destination: where it points, never a secret. */
function auditView(r: repo.StorageDestinationRow) {
  return { name: r.name, endpoint: r.endpoint, region: r.region, bucket: r.bucket, prefix: r.prefix, forcePathStyle: r.forcePathStyle };
}

const CONNECTION_FIELDS = ["endpoint", "region", "bucket", "forcePathStyle"] as const;

/**
 * Changes a destination (spec: PATCH rules): null removes endpoint or prefix; a change of
 * endpoint, region, bucket or forcePathStyle needs secretAccessKey again; keys left out stay. Every
 * change but a pure rename runs the test upload first, and nothing is saved when it fails. A field
 * sent with its saved value is no change.
 */
export async function updateDestination(ctx: Ctx, id: string, input: UpdateDestinationInput): Promise<StorageDestination & { testUpload?: TestUpload }> {
  requireScope(ctx, "destination:manage");
  const row = await repo.findDestination(db(), ctx.workspaceId, id);
  if (!row) throw notFound("storage destination", id);
  const next = {
    name: input.name ?? row.name,
    endpoint: input.endpoint === undefined ? row.endpoint : input.endpoint,
    region: input.region ?? row.region,
    bucket: input.bucket ?? row.bucket,
    prefix: input.prefix === undefined ? row.prefix : input.prefix,
    forcePathStyle: input.forcePathStyle ?? row.forcePathStyle,
    accessKeyId: input.accessKeyId ?? row.accessKeyId,
  };
  const changed = (Object.keys(next) as (keyof typeof next)[]).filter((k) => next[k] !== row[k]);
  const connectionChanged = CONNECTION_FIELDS.filter((k) => changed.includes(k));
  if (connectionChanged.length && input.secretAccessKey === undefined) {
    throw invalidValue("secretAccessKey", `is required again when ${connectionChanged.join(", ")} change${connectionChanged.length === 1 ? "s" : ""}`);
  }
  if (connectionChanged.includes("endpoint") && next.endpoint !== null) await assertAllowedEndpoint(next.endpoint);
  if (changed.includes("name") && (await repo.findDestinationByName(db(), ctx.workspaceId, next.name, id))) throw nameTaken(next.name);
  const needsTest = changed.some((k) => k !== "name") || input.secretAccessKey !== undefined;
  let test: TestUpload | undefined;
  if (needsTest) {
    const secretAccessKey = input.secretAccessKey ?? openSecret(row);
    test = await runTestUpload({ ...next, secretAccessKey }, next.prefix);
  }
  return withTx(async (tx) => {
    await repo.lockDestinations(tx, ctx.workspaceId);
    if (!(await repo.findDestination(tx, ctx.workspaceId, id))) throw notFound("storage destination", id);
    if (changed.includes("name") && (await repo.findDestinationByName(tx, ctx.workspaceId, next.name, id))) throw nameTaken(next.name);
    const updated = await repo.updateDestination(tx, id, {
      ...next,
      ...(input.secretAccessKey !== undefined ? { secretAccessKeySealed: seal(SECRET_PURPOSE, Buffer.from(input.secretAccessKey, "utf8")) } : {}),
    });
    const fields = input.secretAccessKey !== undefined ? [...changed, "secretAccessKey"] : changed;
    await recordAudit(tx, ctx, "storage_destination.update", { type: "storage_destination", id }, { ...auditView(updated), changed: fields });
    return test ? { ...toPublic(updated), testUpload: test } : toPublic(updated);
  });
}

/** What a render records of its destination at creation (spec: Render destination): the key is fixed then. */
export type RenderDestination = { destinationId: string; destinationName: string; destinationKey: string; keepCopy: boolean };

/**
 * The destination of a new render: the saved destination named (400 naming destination.name when
 * none is), and the object key: prefix, a slash, then path ({renderId} replaced; default
 * {renderId}.<extension>), at most 1,024 bytes (400 naming destination.path). Needs only
 * render:create (spec: Scopes).
 */
export async function resolveRenderDestination(
  ex: Executor,
  ctx: Ctx,
  input: RenderDestinationInput,
  renderId: string,
  extension: string,
  fieldPath = "destination",
): Promise<RenderDestination> {
  const row = await repo.findDestinationByName(ex, ctx.workspaceId, input.name);
  if (!row) throw new AppError("BAD_REQUEST", `${fieldPath}.name: no storage destination is named ${input.name}`, { details: [{ path: `${fieldPath}.name`, message: `no storage destination is named ${input.name}` }] });
  const path = (input.path ?? `{renderId}.${extension}`).replaceAll("{renderId}", renderId);
  const key = row.prefix ? `${row.prefix}/${path}` : path;
  const bytes = Buffer.byteLength(key, "utf8");
  if (bytes > MAX_KEY_BYTES) throw invalidValue(`${fieldPath}.path`, `the object key (prefix, a slash and path) is ${bytes} bytes; at most ${MAX_KEY_BYTES}`);
  return { destinationId: row.id, destinationName: row.name, destinationKey: key, keepCopy: input.keepCopy };
}
