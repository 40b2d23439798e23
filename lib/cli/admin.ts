import { parseArgs } from "node:util";
import { z } from "zod";
import { systemCtx } from "../auth/context";
import { scopes as allScopes } from "../auth/scopes";
import { ConfigError } from "../config";
import { closeDb } from "../db/client";
import { AppError, badRequest, errorCodes, fromZodError } from "../errors";
import { safeErrorText } from "../log";
import { createKeyAsSystem, CreateKeyInput, getKeyWorkspaceId, listKeys, revokeKey } from "../keys";
import { createUser } from "../users";
import { listUsers, resetPassword } from "../people/admin";
import { createWorkspace, getWorkspace, listWorkspaces, setLimits, setSuspended } from "../workspaces";
import { openDatabase } from "./database";

/**
 * Platform administration from the project's folder (decisions.md: Bootstrap and platform
 * administration). Every change is audited with the system actor "cli". With --json the only
 * output is one JSON object: the result, or {error: {code, message, details?}}.
 */

/** Every command: its words, its flags as the help shows them, and what it does. */
const commandTable = [
  { command: "help", flags: "", description: "Lists every command with its flags (also shown without a command)." },
  { command: "workspace create", flags: "--name N", description: "Creates a workspace. -> {id, name}" },
  { command: "workspace list", flags: "", description: "Lists every workspace. -> {items: [{id, name, suspended, createdAt}]}" },
  { command: "workspace suspend", flags: "ID", description: "Suspends a workspace: its keys and people get 403 within a second." },
  { command: "workspace unsuspend", flags: "ID", description: "Lifts a suspension." },
  {
    command: "workspace limits",
    flags: "ID [--max-active-renders N] [--renders-per-minute N] [--documents-per-month N|null] [--max-storage-bytes N|null] [--test-renders-per-day N|null]",
    description: "Sets render limits (null: unlimited); with no flag, shows them. -> the render limits record",
  },
  {
    command: "user create",
    flags: "--email E --password P --workspace ID --role owner|admin|member|content_editor [--platform-admin]",
    description: "Creates a person with a password as a member of the workspace. -> {id, email, role, platformAdmin, workspaceId}",
  },
  {
    command: "user list",
    flags: "[--workspace ID]",
    description: "Lists every person, or the members of one workspace. -> {items: [{id, email, name?, platformAdmin, createdAt, memberships: [{workspaceId, role}]}]}",
  },
  {
    command: "user reset-password",
    flags: "--email E",
    description: "Gives the person a new generated password, printed only now; the old one stops working and the person's console sessions end. -> {email, password}",
  },
  {
    command: "key create",
    flags: "--workspace ID --name N --scopes s1,s2|all [--expires-in-days N]",
    description: "Creates an API key; its secret is printed only now. -> {id, name, scopes, secret, expiresAt?}",
  },
  { command: "key list", flags: "--workspace ID", description: "Lists the workspace's API keys, never their secrets. -> {items: [key records]}" },
  { command: "key revoke", flags: "ID", description: "Revokes an API key; it stops working within a second. -> the key record" },
] as const;

type CommandName = (typeof commandTable)[number]["command"];

const PREFIX = "npm run --silent admin --";

const usage = [
  `Usage: ${PREFIX} <command> [flags] [--json]`,
  "",
  "Commands:",
  ...commandTable.flatMap((c) => [`  ${c.command}${c.flags ? ` ${c.flags}` : ""}`, `      ${c.description}`]),
  "",
  "Every command takes --json: the only output is then one JSON object, the result or {error: {code, message, details?}}.",
  "Exit codes: 0 done; 1 refused (the message says why); 2 unknown command or internal error.",
].join("\n");

/** The help as one JSON object, for --json. */
const helpJson = {
  usage: `${PREFIX} <command> [flags] [--json]`,
  commands: commandTable.map((c) => ({ command: c.command, flags: c.flags, description: c.description })),
  exitCodes: { "0": "done", "1": "refused", "2": "unknown command or internal error" },
};

/** A command the CLI does not have: exit code 2, like a usage error of any Unix tool. */
class UnknownCommand extends AppError {}

const options = {
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  name: { type: "string" },
  email: { type: "string" },
  password: { type: "string" },
  workspace: { type: "string" },
  role: { type: "string" },
  "platform-admin": { type: "boolean" },
  scopes: { type: "string" },
  "expires-in-days": { type: "string" },
  "max-active-renders": { type: "string" },
  "renders-per-minute": { type: "string" },
  "documents-per-month": { type: "string" },
  "max-storage-bytes": { type: "string" },
  "test-renders-per-day": { type: "string" },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>["values"];

const CLI = "cli";

/**
 * A string option always takes the next word as its value, as getopt does, so a
 * password or name that begins with "-" works without the "--password=-x" form.
 */
function bindOptionValues(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const name = arg.startsWith("--") ? arg.slice(2) : "";
    const option = (options as Record<string, { type: string }>)[name];
    const value = args[i + 1];
    if (option?.type === "string" && value !== undefined) {
      out.push(`--${name}=${value}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

function need(values: Values, name: keyof Values): string {
  const v = values[name];
  if (typeof v !== "string" || v === "") throw badRequest(`--${name} is required`);
  return v;
}

/** The command the positionals name and the words after it, or UnknownCommand. */
function findCommand(positionals: string[]): { command: CommandName; rest: string[] } {
  for (const { command } of commandTable) {
    const words = command.split(" ");
    if (words.every((w, i) => positionals[i] === w)) return { command, rest: positionals.slice(words.length) };
  }
  throw new UnknownCommand("BAD_REQUEST", `Unknown command: ${positionals.join(" ")}. Run "${PREFIX} help" for the list.`);
}

/** "12" -> 12, "null" -> null (unlimited), else a BAD_REQUEST naming the option. */
function count(values: Values, name: keyof Values, nullable: boolean): number | null | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  if (nullable && v === "null") return null;
  if (typeof v !== "string" || !/^\d+$/.test(v)) throw badRequest(`--${name} must be a whole number${nullable ? " or null" : ""}`);
  return Number(v);
}

async function run(command: CommandName, rest: string[], values: Values): Promise<{ json: unknown; text: string }> {
  const takesId = commandTable.find((c) => c.command === command)!.flags.startsWith("ID");
  if (rest.length > (takesId ? 1 : 0)) throw badRequest(`${command}: unexpected argument ${rest[takesId ? 1 : 0]}`);
  const id = () => {
    const arg = rest[0];
    if (!arg) throw badRequest(`${command} needs an ID`);
    return arg;
  };
  switch (command) {
    case "help":
      return { json: helpJson, text: usage };
    case "workspace create": {
      const w = await createWorkspace(CLI, need(values, "name"));
      return { json: { id: w.id, name: w.name }, text: `Created workspace ${w.name} (${w.id})` };
    }
    case "workspace list": {
      const r = await listWorkspaces();
      return { json: r, text: r.items.map((w) => `${w.id}\t${w.name}${w.suspended ? "\t(suspended)" : ""}`).join("\n") };
    }
    case "workspace suspend":
    case "workspace unsuspend": {
      const w = await getWorkspace(id());
      const r = await setSuspended(systemCtx(w.id, CLI), command === "workspace suspend");
      return { json: r, text: `Workspace ${r.id} is ${r.suspended ? "suspended" : "active"}` };
    }
    case "workspace limits": {
      const w = await getWorkspace(id());
      const r = await setLimits(systemCtx(w.id, CLI), {
        maxActiveRenders: count(values, "max-active-renders", false) ?? undefined,
        rendersPerMinute: count(values, "renders-per-minute", false) ?? undefined,
        documentsPerMonth: count(values, "documents-per-month", true),
        maxStorageBytes: count(values, "max-storage-bytes", true),
        testRendersPerDay: count(values, "test-renders-per-day", true),
      });
      return { json: r, text: Object.entries(r).map(([k, v]) => `${k}: ${v ?? "unlimited"}`).join("\n") };
    }
    case "user list": {
      const workspace = values.workspace === undefined ? undefined : await getWorkspace(need(values, "workspace"));
      const r = await listUsers({ workspaceId: workspace?.id });
      const text = r.items.map((u) => [u.id, u.email, u.platformAdmin ? "platform admin" : "", u.memberships.map((m) => `${m.workspaceId}:${m.role}`).join(",")].join("\t"));
      return { json: r, text: text.join("\n") };
    }
    case "user reset-password": {
      const r = await resetPassword(CLI, need(values, "email"));
      return { json: r, text: `New password for ${r.email}, shown only now:\n${r.password}` };
    }
    case "user create": {
      const w = await getWorkspace(need(values, "workspace"));
      const role = z.enum(["owner", "admin", "member", "content_editor"]).safeParse(need(values, "role"));
      if (!role.success) throw badRequest("--role must be owner, admin, member or content_editor");
      const u = await createUser(systemCtx(w.id, CLI), {
        email: need(values, "email"),
        password: need(values, "password"),
        role: role.data,
        platformAdmin: values["platform-admin"] ?? false,
      });
      return { json: u, text: `Created user ${u.email} (${u.id}) as ${u.role} of ${w.id}` };
    }
    case "key create": {
      const w = await getWorkspace(need(values, "workspace"));
      const scopeText = need(values, "scopes");
      const input = CreateKeyInput.safeParse({
        name: need(values, "name"),
        scopes: scopeText === "all" ? [...allScopes] : scopeText.split(",").map((s) => s.trim()),
        expiresInDays: count(values, "expires-in-days", false) ?? undefined,
      });
      if (!input.success) throw fromZodError(input.error);
      const k = await createKeyAsSystem(systemCtx(w.id, CLI), input.data.name, input.data.scopes, input.data.expiresInDays ?? null);
      return {
        json: { id: k.id, name: k.name, scopes: k.scopes, secret: k.secret, ...(k.expiresAt ? { expiresAt: k.expiresAt } : {}) },
        text: `Created key ${k.name} (${k.id}). Its secret, shown only now:\n${k.secret}`,
      };
    }
    case "key list": {
      const w = await getWorkspace(need(values, "workspace"));
      const r = await listKeys(systemCtx(w.id, CLI));
      return { json: r, text: r.items.map((k) => [k.id, k.name, `${k.prefix}…`, k.status, k.scopes.join(",")].join("\t")).join("\n") };
    }
    case "key revoke": {
      const keyId = id();
      const k = await revokeKey(systemCtx(await getKeyWorkspaceId(keyId), CLI), keyId);
      return { json: k, text: `Key ${k.name} (${k.id}) is ${k.status}` };
    }
  }
}

async function main() {
  process.env.FOLIO_PROCESS = "cli";
  let values: Values = {};
  let positionals: string[] = [];
  let json = process.argv.includes("--json");
  let embedded: Awaited<ReturnType<typeof openDatabase>>["embedded"];
  let exitCode = 0;
  try {
    ({ values, positionals } = parseArgs({ args: bindOptionValues(process.argv.slice(2)), options, allowPositionals: true, strict: true }));
    json = values.json ?? false;
    const { command, rest } = values.help || positionals.length === 0 ? { command: "help" as const, rest: [] } : findCommand(positionals);
    // why: help needs no database, so it answers even where none is reachable.
    if (command !== "help") ({ embedded } = await openDatabase());
    const out = await run(command, rest, values);
    console.log(json ? JSON.stringify(out.json) : out.text);
  } catch (err) {
    exitCode = 1;
    const e =
      err instanceof AppError
        ? err
        : err instanceof z.ZodError
          ? fromZodError(err)
          : err instanceof ConfigError || (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")
            ? badRequest((err as Error).message)
            : // why safeErrorText: a failed statement's message carries its values (a new password's hash).
              new AppError("INTERNAL", safeErrorText(err));
    if (json) {
      console.log(JSON.stringify({ error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) } }));
    } else {
      console.error(`Error (${e.code}): ${e.message}`);
      if (err instanceof UnknownCommand) console.error(`\n${usage}`);
    }
    if (err instanceof UnknownCommand || errorCodes[e.code].status >= 500) exitCode = 2;
  } finally {
    await closeDb().catch(() => {});
    if (embedded?.startedHere) embedded.stop();
  }
  process.exit(exitCode);
}

void main();
