import { describe, expect, it } from "vitest";
import { auditActorKey, auditFilterChoices, describeActors, recordAudit } from "@/lib/audit";
import { roleScopes } from "@/lib/auth/scopes";
import { systemCtx, type Ctx } from "@/lib/auth/context";
import { db } from "@/lib/db/client";
import { createTestWorkspace } from "@/lib/testing/factories";
import { api } from "@/lib/testing/http";

const personCtx = (workspaceId: string, userId: string, role: keyof typeof roleScopes = "owner"): Ctx => ({
  workspaceId,
  actor: { type: "user", userId, scopes: roleScopes[role], platformAdmin: false },
});

describe("audit actors and filter choices (the console's audit page)", () => {
  it("labels people by email, keys by name and prefix, deleted keys and system jobs", async () => {
    const w = await createTestWorkspace();
    const { cookie, userId, email } = await w.signIn("admin");
    const created = await api("/v1/api-keys", { method: "POST", cookie, body: { name: "Nightly export", scopes: ["audit:read"] } });
    const gone = await api("/v1/api-keys", { method: "POST", cookie, body: { name: "Gone", scopes: ["audit:read"] } });
    expect((await api(`/v1/api-keys/${gone.body.id}`, { method: "DELETE", cookie })).status).toBe(200);
    // Both keys act once, so they appear as actors.
    for (const k of [created.body, gone.body]) {
      await db().transaction((tx) => recordAudit(tx, { workspaceId: w.id, actor: { type: "apiKey", keyId: k.id, scopes: [] } }, "test.key_act", { type: "thing", id: "t" }));
    }

    const ctx = personCtx(w.id, userId);
    const refs = [
      { type: "user" as const, id: userId },
      { type: "apiKey" as const, id: created.body.id },
      { type: "apiKey" as const, id: gone.body.id },
      { type: "system" as const, id: "cli" },
    ];
    const labels = await describeActors(ctx, refs);
    expect(labels.get(auditActorKey(refs[0]!))).toEqual({ ...refs[0], label: email });
    expect(labels.get(auditActorKey(refs[1]!))).toEqual({ ...refs[1], label: "Nightly export", detail: `API key ${created.body.prefix}…` });
    expect(labels.get(auditActorKey(refs[2]!))).toEqual({ ...refs[2], label: "Deleted key", detail: "API key" });
    expect(labels.get(auditActorKey(refs[3]!))).toEqual({ ...refs[3], label: "System", detail: "cli" });

    const choices = await auditFilterChoices(ctx);
    expect(choices.actions).toEqual(["api_key.create", "api_key.delete", "test.key_act", "user.create", "workspace.create"]);
    // Most recently active first: the keys acted last, the system (workspace and user creation) first.
    expect(choices.actors.map((a) => a.label).slice(0, 2).sort()).toEqual(["Deleted key", "Nightly export"]);
    expect(choices.actors.map((a) => a.label).slice(2)).toEqual([email, "System"]);
  });

  it("does not tell the email of a person who never acted in the workspace, nor another workspace's key name", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const stranger = await other.signIn("owner");
    const { userId } = await w.signIn("owner");
    const labels = await describeActors(personCtx(w.id, userId), [
      { type: "user", id: stranger.userId },
      { type: "apiKey", id: other.keyId },
    ]);
    expect([...labels.values()].map((a) => a.label)).toEqual(["Former user", "Deleted key"]);
  });

  it("refuses a role without audit:read", async () => {
    const w = await createTestWorkspace();
    const { userId } = await w.signIn("content_editor");
    const ctx = personCtx(w.id, userId, "content_editor");
    await expect(auditFilterChoices(ctx)).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining("audit:read") });
    await expect(describeActors(ctx, [])).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining("audit:read") });
    // The system actor (CLI) reads everything.
    expect((await auditFilterChoices(systemCtx(w.id, "cli"))).actions).toContain("workspace.create");
  });
});
