import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { scopes as allScopes } from "../auth/scopes";
import { db } from "../db/client";
import { passwordResetTokens } from "../db/schema";
import { getPasswordReset } from "../people/profile";
import { hashToken, newToken } from "../people/tokens";
import { createTestWorkspace, signIn } from "../testing/factories";
import { api, expectError } from "../testing/http";
import { runAdminCli, type CliRun } from "../testing/admin-cli";
import { projectRoot } from "../testing/server";

type CliResult = CliRun & { json: Record<string, unknown> };

/** Runs the real admin CLI with exactly these arguments against the test database. */
function cli(args: string[]): Promise<CliRun> {
  return runAdminCli(args, inject("serverEnv"));
}

/** The one JSON object a --json run printed, or a failure showing what it printed instead. */
function parseJson(args: string[], r: CliRun): CliResult {
  try {
    const json = JSON.parse(r.stdout) as unknown;
    if (!json || typeof json !== "object" || Array.isArray(json)) throw new Error("not an object");
    return { ...r, json: json as Record<string, unknown> };
  } catch (e) {
    throw new Error(`admin ${args.join(" ")}: stdout is not one JSON object (${(e as Error).message}); exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  }
}

/** Runs the admin CLI with --json; stdout must be exactly one JSON object. */
async function admin(...args: string[]): Promise<CliResult> {
  return parseJson(args, await cli([...args, "--json"]));
}

/** Splits a README command line as sh would: words, single and double quotes, a trailing # comment. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  const re = /\s*(?:'([^']*)'|"([^"]*)"|(#.*)|([^\s'"]+))/gy;
  let word: string | undefined;
  for (let m = re.exec(line); m && m[0] !== ""; m = re.exec(line)) {
    if (m[3] !== undefined) break;
    word = (word ?? "") + (m[1] ?? m[2] ?? m[4] ?? "");
    // A word ends at whitespace; quoted and unquoted pieces next to each other join.
    if (/\s/.test(line[re.lastIndex] ?? " ")) {
      words.push(word);
      word = undefined;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
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
  it("creates and administers a workspace, its people and keys, auditing each change", { timeout: 600_000 }, async ({ expect }) => {
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

  it("answers errors as one JSON object with exit code 1", { timeout: 600_000 }, async () => {
    const w = await createTestWorkspace();
    const id = w.id;
    const [unknownWs, unknownWsKey, unknownCommand, missingName, unknownOption, badScope, badNumber, badRole, badEmail, unknownKey, unknownEmail, extraArg] =
      await Promise.all([
        admin("workspace", "suspend", "ws_doesNotExist"),
        admin("key", "create", "--workspace", "ws_doesNotExist", "--name", "n", "--scopes", "render:read"),
        admin("workspace", "explode"),
        admin("workspace", "create"),
        admin("workspace", "list", "--colour", "red"),
        admin("key", "create", "--workspace", id, "--name", "n", "--scopes", "render:read,render:everything"),
        admin("workspace", "limits", id, "--max-active-renders", "lots"),
        admin("user", "create", "--email", "x@folio.test", "--password", "long-enough-1", "--workspace", id, "--role", "emperor"),
        admin("user", "create", "--email", "not an address", "--password", "long-enough-1", "--workspace", id, "--role", "member"),
        admin("key", "revoke", "key_doesNotExist"),
        admin("user", "reset-password", "--email", "nobody-here@folio.test"),
        admin("key", "list", "--workspace", id, "surplus"),
      ]);
    expect(expectCliError(unknownWs, "NOT_FOUND").message).toContain("ws_doesNotExist");
    expectCliError(unknownWsKey, "NOT_FOUND");
    // An unknown command exits 2, and says where the list is.
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.json).toEqual({ error: { code: "BAD_REQUEST", message: expect.stringContaining("workspace explode") } });
    expect((unknownCommand.json.error as { message: string }).message).toContain("admin -- help");
    expect(expectCliError(badEmail, "BAD_REQUEST").details).toEqual([{ path: "email", message: expect.stringContaining("email address") }]);
    expect(expectCliError(unknownKey, "NOT_FOUND").message).toContain("key_doesNotExist");
    expect(expectCliError(unknownEmail, "NOT_FOUND").message).toContain("nobody-here@folio.test");
    expect(expectCliError(extraArg, "BAD_REQUEST").message).toContain("surplus");
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

// One after another: each CLI call starts a process, and the machine is shared.
describe("admin CLI: help, keys, people and the README's examples", () => {
  it("help lists every command with its flags: on help, on no command, and on an unknown command with exit code 2", { timeout: 600_000 }, async () => {
    const [help, none, unknown, helpJson] = await Promise.all([cli(["help"]), cli([]), cli(["user", "delete"]), admin("help")]);
    const commands = ["workspace create", "workspace list", "workspace suspend", "workspace unsuspend", "workspace limits", "user create", "user list",
      "user reset-password", "key create", "key list", "key revoke", "help"];
    expect(help.code).toBe(0);
    for (const c of commands) expect(help.stdout).toContain(`  ${c}`);
    for (const flag of ["--name N", "--email E --password P --workspace ID --role", "--platform-admin", "--scopes s1,s2|all", "--expires-in-days N",
      "--max-active-renders N", "--documents-per-month N|null", "--json"]) expect(help.stdout).toContain(flag);
    expect(none).toEqual(help);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toContain("Unknown command: user delete");
    expect(unknown.stderr).toContain("  user reset-password --email E");
    expect(helpJson.code).toBe(0);
    expect((helpJson.json.commands as { command: string }[]).map((c) => c.command).sort()).toEqual([...commands].sort());
  });

  it("lists and revokes keys, lists people and resets a password, auditing each change", { timeout: 600_000 }, async () => {
    const w = await createTestWorkspace();
    const member = await w.signIn("member");
    // A "forgot password" link the member asked for and never used.
    const resetLink = newToken();
    await db().insert(passwordResetTokens).values({ tokenHash: hashToken(resetLink), userId: member.userId, expiresAt: new Date(Date.now() + 3_600_000) });
    expect((await getPasswordReset(resetLink)).state).toBe("valid");
    const sessionOf = async (cookie: string) => ((await api("/api/auth/session", { cookie })).body as { userId?: string }).userId;
    expect(await sessionOf(member.cookie)).toBe(member.userId);
    const [keys, people, everyone, reset] = await Promise.all([
      admin("key", "list", "--workspace", w.id),
      admin("user", "list", "--workspace", w.id),
      admin("user", "list"),
      admin("user", "reset-password", "--email", member.email.toUpperCase()),
    ]);
    expect(keys.code).toBe(0);
    expect(keys.json).toEqual({ items: [expect.objectContaining({ id: w.keyId, status: "active", prefix: expect.any(String), setByServer: false })] });
    expect(JSON.stringify(keys.json)).not.toContain(w.key);
    expect(people.json).toEqual({
      items: [{ id: member.userId, email: member.email, platformAdmin: false, createdAt: expect.any(String), memberships: [{ workspaceId: w.id, role: "member" }] }],
    });
    const all = everyone.json.items as { id: string; email: string; platformAdmin: boolean }[];
    expect(all.map((u) => u.id)).toContain(member.userId);
    expect(all).toContainEqual(expect.objectContaining({ email: "owner@folio.test", platformAdmin: true }));

    // The new password works once printed; the old one no longer does.
    expect(reset.code).toBe(0);
    expect(reset.json).toEqual({ email: member.email, password: expect.stringMatching(/^[A-Za-z0-9_-]{20}$/) });
    expect(await signIn(member.email, reset.json.password as string)).toMatch(/next-auth\.session-token=/);
    expect((await getPasswordReset(resetLink)).state).toBe("used"); // the unused link ended with the reset
    // The member's console session from before the reset has ended (docs/api.md, Console sign-in).
    expect(await sessionOf(member.cookie)).toBeUndefined();
    expect((await api("/v1/usage", { cookie: member.cookie })).status).toBe(401);

    const revoked = await admin("key", "revoke", w.keyId);
    expect(revoked.code).toBe(0);
    expect(revoked.json).toMatchObject({ id: w.keyId, status: "revoked" });
    await expect.poll(async () => (await api("/v1/audit-events", { key: w.key })).status, { timeout: 3000 }).toBe(401);
    const again = await admin("key", "revoke", w.keyId);
    expect(again.json).toMatchObject({ id: w.keyId, status: "revoked" });

    const other = await w.newKey(["audit:read"]);
    const audit = (await api<AuditPage>("/v1/audit-events?limit=100", { key: other.secret })).body.items;
    const cli_ = { type: "system", id: "cli" };
    expect(audit.filter((e) => e.action === "user.reset_password")).toEqual([
      expect.objectContaining({ actor: cli_, targetType: "user", targetId: member.userId, details: { email: member.email } }),
    ]);
    // Revoking an already revoked key changes nothing and records nothing.
    expect(audit.filter((e) => e.action === "api_key.revoke")).toEqual([expect.objectContaining({ actor: cli_, targetType: "api_key", targetId: w.keyId })]);
    expect(JSON.stringify(audit)).not.toContain(reset.json.password as string);
  });

  it("runs every README example as written, in order", { timeout: 600_000 }, async () => {
    const readme = fs.readFileSync(path.join(projectRoot, "README.md"), "utf8");
    const lines = [...readme.matchAll(/^\s*npm run --silent admin -- (.+)$/gm)].map((m) => m[1]!);
    expect(lines.length).toBeGreaterThanOrEqual(12);
    const ids: Record<string, string> = {};
    const seen = new Set<string>();
    for (const line of lines) {
      // The ids the README writes as ws_… and key_… are those the commands before printed.
      const args = shellWords(line).map((word) => {
        if (!word.includes("…")) return word;
        const id = ids[word];
        if (!id) throw new Error(`README example "${line}": nothing before it printed the id for ${word}`);
        return id;
      });
      const r = await cli(args);
      expect(r.code, `${line}\n${r.stdout}${r.stderr}`).toBe(0);
      const command = args.slice(0, 2).join(" ");
      seen.add(args[0] === "help" ? "help" : command);
      if (!args.includes("--json")) continue;
      const { json } = parseJson(args, r);
      if (command === "workspace create") ids["ws_…"] = json.id as string;
      if (command === "key create") ids["key_…"] = json.id as string;
      if (command === "user create") expect(json).toMatchObject({ email: "a@b.c", role: "admin", workspaceId: ids["ws_…"] });
      if (command === "user reset-password") {
        expect(json).toEqual({ email: "a@b.c", password: expect.any(String) });
        expect(await signIn("a@b.c", json.password as string)).toMatch(/next-auth\.session-token=/);
      }
      if (command === "key revoke") expect(json).toMatchObject({ id: ids["key_…"], status: "revoked" });
    }
    // The README shows every command.
    expect([...seen].sort()).toEqual(
      ["help", "workspace create", "workspace list", "workspace limits", "user create", "user list", "user reset-password", "key create", "key list",
        "key revoke", "workspace suspend", "workspace unsuspend"].sort(),
    );
  });
});
