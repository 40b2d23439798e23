import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { scopes as allScopes } from "../auth/scopes";
import { createTestWorkspace, signIn } from "../testing/factories";
import { api, expectError } from "../testing/http";
import { projectRoot } from "../testing/server";

type CliResult = { code: number; stdout: string; stderr: string; json: Record<string, unknown> };

/** Runs the real admin CLI against the test database; stdout must be exactly one JSON object. */
function admin(...args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    execFile(
      "npm",
      ["run", "--silent", "admin", "--", ...args, "--json"],
      { cwd: projectRoot, env: { ...process.env, ...inject("serverEnv") }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : -1) : 0;
        try {
          const json = JSON.parse(stdout) as unknown;
          if (!json || typeof json !== "object" || Array.isArray(json)) throw new Error("not an object");
          resolve({ code, stdout, stderr, json: json as Record<string, unknown> });
        } catch (e) {
          reject(new Error(`admin ${args.join(" ")}: stdout is not one JSON object (${(e as Error).message}); exit ${code}\nstdout: ${stdout}\nstderr: ${stderr}`));
        }
      },
    );
  });
}

function expectCliError(r: CliResult, code: string) {
  expect(r.code, r.stderr).toBe(1);
  expect(r.json).toEqual({ error: { code, message: expect.any(String), ...("details" in (r.json.error as object) ? { details: expect.any(Array) } : {}) } });
  return r.json.error as { code: string; message: string; details?: { path?: string; message: string }[] };
}

const limitFields = [
  "maxActiveRenders",
  "rendersPerMinute",
  "documentsPerMonth",
  "maxStorageBytes",
  "testRendersPerDay",
  "documentsThisMonth",
  "storageBytes",
  "testRendersToday",
  "templateConversionsPerMonth",
  "templateConversionsThisMonth",
  "suspended",
];

type AuditPage = { items: { action: string; actor: { type: string; id: string }; targetType: string; targetId: string; details: Record<string, unknown> }[] };

// The two tests run together: each CLI call starts a process, which is most of the time spent.
describe.concurrent("admin CLI", () => {
  it("creates and administers a workspace, its people and keys, auditing each change", { timeout: 120_000 }, async ({ expect }) => {
    const name = `CLI ${randomBytes(3).toString("hex")}`;
    const created = await admin("workspace", "create", "--name", name);
    expect(created.code).toBe(0);
    expect(created.json).toEqual({ id: expect.stringMatching(/^ws_[0-9A-Za-z]+$/), name });
    const id = created.json.id as string;

    const email = `cli-${randomBytes(4).toString("hex")}@folio.test`;
    // A leading "-" is taken as the value, not as an option.
    const password = `-${randomBytes(12).toString("base64url")}`;
    const [list, limits, readKey, allKey, user] = await Promise.all([
      admin("workspace", "list"),
      admin("workspace", "limits", id, "--max-active-renders", "20", "--renders-per-minute", "100", "--documents-per-month", "null", "--test-renders-per-day", "5"),
      admin("key", "create", "--workspace", id, "--name", "reader", "--scopes", "render:read,audit:read", "--expires-in-days", "7"),
      admin("key", "create", "--workspace", id, "--name", "everything", "--scopes", "all"),
      admin("user", "create", "--email", email, "--password", password, "--workspace", id, "--role", "admin"),
    ]);

    expect(list.code).toBe(0);
    expect((list.json.items as unknown[]).filter((w) => (w as { id: string }).id === id)).toEqual([
      { id, name, suspended: false, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) },
    ]);

    expect(limits.code).toBe(0);
    expect(Object.keys(limits.json).sort()).toEqual([...limitFields].sort());
    expect(limits.json).toMatchObject({
      maxActiveRenders: 20,
      rendersPerMinute: 100,
      documentsPerMonth: null,
      testRendersPerDay: 5,
      documentsThisMonth: 0,
      storageBytes: 0,
      testRendersToday: 0,
      templateConversionsThisMonth: 0,
      suspended: false,
    });

    expect(readKey.code).toBe(0);
    expect(readKey.json).toEqual({
      id: expect.stringMatching(/^key_/),
      name: "reader",
      scopes: ["render:read", "audit:read"],
      secret: expect.any(String),
      expiresAt: expect.any(String),
    });
    const expiresIn = Date.parse(readKey.json.expiresAt as string) - Date.now();
    expect(Math.abs(expiresIn - 7 * 86_400_000)).toBeLessThan(120_000);
    expect(allKey.json).toEqual({ id: expect.stringMatching(/^key_/), name: "everything", scopes: [...allScopes], secret: expect.any(String) });

    expect(user.code).toBe(0);
    expect(user.json).toMatchObject({ id: expect.stringMatching(/^usr_/), email, role: "admin", platformAdmin: false, workspaceId: id });
    expect(await signIn(email, password)).toMatch(/next-auth\.session-token=/);

    const key = readKey.json.secret as string;
    const before = await api<AuditPage>("/v1/audit-events?limit=100", { key });
    expect(before.status, before.text).toBe(200);
    // The reader key is scoped: it cannot list API keys.
    expectError(await api("/v1/api-keys", { key }), 403, "FORBIDDEN");
    expect((await api("/v1/api-keys", { key: allKey.json.secret as string })).status).toBe(200);

    // Limits change alongside: a number, then null (unlimited) again.
    const [suspended, capped] = await Promise.all([
      admin("workspace", "suspend", id),
      admin("workspace", "limits", id, "--documents-per-month", "1000", "--max-storage-bytes", "5000"),
    ]);
    expect(capped.json).toMatchObject({ documentsPerMonth: 1000, maxStorageBytes: 5000, maxActiveRenders: 20 });
    expect(suspended.code).toBe(0);
    expect(suspended.json).toMatchObject({ id, name, suspended: true });
    await expect.poll(async () => (await api("/v1/audit-events", { key })).status, { timeout: 3000 }).toBe(403);
    expectError(await api("/v1/audit-events", { key }), 403, "FORBIDDEN");

    const [unsuspended, uncapped] = await Promise.all([
      admin("workspace", "unsuspend", id),
      admin("workspace", "limits", id, "--documents-per-month", "null"),
    ]);
    expect(uncapped.json).toMatchObject({ documentsPerMonth: null, maxStorageBytes: 5000 });
    expect(unsuspended.json).toMatchObject({ id, suspended: false });
    await expect.poll(async () => (await api("/v1/audit-events", { key })).status, { timeout: 3000 }).toBe(200);

    const audit = (await api<AuditPage>("/v1/audit-events?limit=100", { key })).body.items;
    const cli = { type: "system", id: "cli" };
    const find = (action: string) => audit.filter((e) => e.action === action);
    expect(find("workspace.create")).toEqual([expect.objectContaining({ actor: cli, targetType: "workspace", targetId: id })]);
    // Newest first; each records only what changed (documentsPerMonth was already null at first).
    expect(find("workspace.update_limits")).toEqual([
      expect.objectContaining({ actor: cli, targetId: id, details: { before: { documentsPerMonth: 1000 }, after: { documentsPerMonth: null } } }),
      expect.objectContaining({
        actor: cli,
        targetId: id,
        details: { before: { documentsPerMonth: null, maxStorageBytes: null }, after: { documentsPerMonth: 1000, maxStorageBytes: 5000 } },
      }),
      expect.objectContaining({
        actor: cli,
        targetType: "workspace",
        targetId: id,
        details: {
          before: { maxActiveRenders: 10, rendersPerMinute: 60, testRendersPerDay: null },
          after: { maxActiveRenders: 20, rendersPerMinute: 100, testRendersPerDay: 5 },
        },
      }),
    ]);
    expect(find("workspace.suspend")).toEqual([expect.objectContaining({ actor: cli, targetId: id })]);
    expect(find("workspace.unsuspend")).toEqual([expect.objectContaining({ actor: cli, targetId: id })]);
    expect(find("user.create")).toEqual([expect.objectContaining({ actor: cli, targetType: "user", targetId: user.json.id })]);
    expect(find("api_key.create").map((e) => [e.actor, e.targetId]).sort()).toEqual(
      [
        [cli, readKey.json.id],
        [cli, allKey.json.id],
      ].sort(),
    );
  });

  it("answers errors as one JSON object with exit code 1", { timeout: 60_000 }, async () => {
    const w = await createTestWorkspace();
    const id = w.id;
    const [unknownWs, unknownWsKey, unknownCommand, missingName, unknownOption, badScope, badNumber, badRole] = await Promise.all([
      admin("workspace", "suspend", "ws_doesNotExist"),
      admin("key", "create", "--workspace", "ws_doesNotExist", "--name", "n", "--scopes", "render:read"),
      admin("workspace", "explode"),
      admin("workspace", "create"),
      admin("workspace", "list", "--colour", "red"),
      admin("key", "create", "--workspace", id, "--name", "n", "--scopes", "render:read,render:everything"),
      admin("workspace", "limits", id, "--max-active-renders", "lots"),
      admin("user", "create", "--email", "x@folio.test", "--password", "long-enough-1", "--workspace", id, "--role", "emperor"),
    ]);
    expect(expectCliError(unknownWs, "NOT_FOUND").message).toContain("ws_doesNotExist");
    expectCliError(unknownWsKey, "NOT_FOUND");
    expect(expectCliError(unknownCommand, "BAD_REQUEST").message).toContain("workspace explode");
    expect(expectCliError(missingName, "BAD_REQUEST").message).toContain("--name");
    expectCliError(unknownOption, "BAD_REQUEST");
    expectCliError(badScope, "BAD_REQUEST");
    expect(JSON.stringify(badScope.json)).toContain("scopes");
    expect(expectCliError(badNumber, "BAD_REQUEST").message).toContain("--max-active-renders");
    expect(expectCliError(badRole, "BAD_REQUEST").message).toContain("--role");
    // Nothing was created for the refused key.
    const keys = await api<{ items: { id: string }[] }>("/v1/api-keys", { key: w.key });
    expect(keys.body.items.map((k) => k.id)).toEqual([w.keyId]);
  });
});
