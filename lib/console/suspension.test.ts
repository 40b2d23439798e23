import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { db } from "../db/client";
import { invitations } from "../db/schema";
import { AppError } from "../errors";
import { acceptInvitation, createInvitation } from "../people";
import { FROM_ADDRESS, newEmail, peopleWorkspace } from "../testing/people";
import { setSuspended } from "../workspaces";
import { PNG_1X1, putRaw, registerAsset } from "../testing/assets";
import { createTestWorkspace } from "../testing/factories";
import { api, expectError } from "../testing/http";
import { callAction } from "../testing/server-actions";
import { startReceiver, type Receiver } from "../testing/webhooks";

// spec: States > Workspace: a suspended workspace's members can still sign in to the console, read
// and export; everything else answers 403 FORBIDDEN (docs/api.md, Suspended workspaces). One rule
// in lib/auth/context.ts, applied by consoleAction, apiRoute's session requests and upload links.

const refused = { ok: false, error: { code: "FORBIDDEN", message: expect.stringMatching(/suspended/) } };
const png = { kind: "image" as const, mediaType: "image/png", bytes: PNG_1X1 };

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

/** A workspace with a webhook endpoint (at the receiver) and a registered, not yet uploaded asset; then suspended. */
async function suspendedWorkspace() {
  const w = await createTestWorkspace();
  const { cookie } = await w.signIn("owner");
  const endpoint = await api("/v1/webhook-endpoints", { key: w.key, body: { url: `${receiver.url}/hook`, eventTypes: ["render.succeeded"] } });
  expect(endpoint.status, endpoint.text).toBe(201);
  const pending = await registerAsset(w.key, png);
  expect(pending.status, pending.text).toBe(201);
  await w.suspend();
  return { w, cookie, endpointId: endpoint.body.id as string, pending: pending.body as { id: string; uploadUrl: string; uploadHeaders: Record<string, string> } };
}

describe("a suspended workspace's console", () => {
  it("refuses each action that creates something with 403 FORBIDDEN, and creates nothing", async () => {
    const { w, cookie, endpointId } = await suspendedWorkspace();
    const before = receiver.received.length;
    const s3 = { endpoint: `${receiver.url}/s3`, bucket: "docs", forcePathStyle: true, accessKeyId: "AKIAEXAMPLE", secretAccessKey: "secret-key-example" };
    const attempts: [string, string, unknown][] = [
      ["app/(console)/api-keys/actions.ts", "createKeyAction", { name: "ci", scopes: ["render:create"] }],
      ["app/(console)/webhooks/actions.ts", "createEndpointAction", { url: `${receiver.url}/other`, eventTypes: ["render.failed"] }],
      ["app/(console)/webhooks/actions.ts", "sendTestEventAction", { id: endpointId }],
      ["app/(console)/destinations/actions.ts", "createDestinationAction", { name: "archive", ...s3 }],
      ["app/(console)/assets/actions.ts", "registerAssetAction", { kind: "image", filename: "logo.png", mediaType: "image/png", size: PNG_1X1.byteLength, sha256: "a".repeat(64) }],
      ["app/(console)/people/actions.ts", "inviteAction", { email: "new-person@folio.test", role: "member" }],
    ];
    for (const [file, action, input] of attempts) {
      const r = await callAction(file, action, input, { cookie });
      expect(r.result, action).toEqual(refused);
    }

    // Nothing was created or sent: reading, which a suspended workspace keeps, shows the workspace as it was.
    const keys = await api("/v1/api-keys", { cookie });
    expect(keys.status, keys.text).toBe(200);
    expect(keys.body.items.map((k: { id: string }) => k.id)).toEqual([w.keyId]);
    const endpoints = await api("/v1/webhook-endpoints", { cookie });
    expect(endpoints.body.items.map((e: { id: string }) => e.id)).toEqual([endpointId]);
    expect((await api("/v1/storage-destinations", { cookie })).body.items).toEqual([]);
    expect((await api("/v1/assets", { cookie })).body.items).toHaveLength(1);
    expect(await db().select().from(invitations).where(eq(invitations.workspaceId, w.id))).toEqual([]);
    // No test event reached the endpoint and no test upload reached the "bucket".
    expect(receiver.received.slice(before)).toEqual([]);
  });

  it("refuses the same through /v1 with the console's session, and on an upload link; reading and downloads still work", async () => {
    const { cookie, endpointId, pending } = await suspendedWorkspace();
    const before = receiver.received.length;
    expectError(await api("/v1/api-keys", { cookie, body: { name: "ci", scopes: ["render:create"] } }), 403, "FORBIDDEN");
    expectError(await api("/v1/webhook-endpoints", { cookie, body: { url: `${receiver.url}/x`, eventTypes: ["render.failed"] } }), 403, "FORBIDDEN");
    expectError(await api(`/v1/webhook-endpoints/${endpointId}/test`, { cookie, method: "POST" }), 403, "FORBIDDEN");
    expectError(await api("/v1/assets", { cookie, body: { kind: "image", filename: "b.png", mediaType: "image/png", size: 3, sha256: "b".repeat(64) } }), 403, "FORBIDDEN");
    expect(receiver.received.slice(before)).toEqual([]);

    // The upload link given before the suspension is refused, and the asset stays pending.
    const put = await putRaw(pending.uploadUrl, pending.uploadHeaders, PNG_1X1);
    expect(put.status, put.text).toBe(403);
    expect(put.body?.error).toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/suspended/) });
    const asset = await api(`/v1/assets/${pending.id}`, { cookie });
    expect(asset.status, asset.text).toBe(200);
    expect(asset.body.state).toBe("pending");

    // Reading: a console page, a read action and /v1 reads answer as before.
    const page = await fetch(`${inject("baseUrl")}/api-keys`, { headers: { cookie }, redirect: "manual" });
    expect(page.status).toBe(200);
    const link = await callAction("app/(console)/assets/actions.ts", "assetLinkAction", { id: pending.id }, { cookie });
    expect(link.result, JSON.stringify(link.result)).toMatchObject({ ok: true, data: { id: pending.id, state: "pending" } });
    expect((await api("/v1/usage", { cookie })).status).toBe(200);
  });

  it("keeps the person's own account: a profile change is not refused", async () => {
    const { cookie } = await suspendedWorkspace();
    const r = await callAction("app/(console)/settings/actions.ts", "updateProfileAction", { name: "Still Me" }, { cookie });
    expect(r.result).toMatchObject({ ok: true });
  });

  it("refuses to let an invitation sent before the suspension be accepted, and accepts it once lifted", async () => {
    const w = await peopleWorkspace();
    const owner = await w.add("owner");
    const issued = await createInvitation(owner.ctx, { email: newEmail(), role: "member" });
    const token = issued.link!.split("/").pop()!;
    await setSuspended(w.system, true);
    const refusal = await acceptInvitation({ token, name: "Grace", password: "a-long-password" }, FROM_ADDRESS).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/suspended/) });
    await setSuspended(w.system, false);
    expect(await acceptInvitation({ token, name: "Grace", password: "a-long-password" }, FROM_ADDRESS)).toMatchObject({ workspaceId: w.id, createdAccount: true });
  });
});
