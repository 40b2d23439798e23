import { parseArgs } from "node:util";
import { z } from "zod";
import { systemCtx } from "../auth/context";
import { scopes as allScopes } from "../auth/scopes";
import { ConfigError } from "../config";
import { closeDb } from "../db/client";
import { AppError, badRequest, errorCodes, fromZodError } from "../errors";
import { createKeyAsSystem, CreateKeyInput } from "../keys";
import { createUser } from "../users";
import { createWorkspace, getWorkspace, listWorkspaces, setLimits, setSuspended } from "../workspaces";
import { openDatabase } from "./database";

/**
 * Platform administration from the project's folder (decisions.md: Bootstrap and platform
 * administration). Every change is audited with the system actor "cli". With --json the only
 * output is one JSON object: the result, or {error: {code, message, details?}}.
 */

const usage = `Usage: npm run --silent admin -- <command> [--json]
  workspace create --name N
  workspace list
  workspace suspend ID
  workspace unsuspend ID
  workspace limits ID [--max-active-renders N] [--renders-per-minute N] [--documents-per-month N|null]
                      [--max-storage-bytes N|null] [--test-renders-per-day N|null]
  user create --email E --password P --workspace ID --role owner|admin|member|content_editor [--platform-admin]
  key create --workspace ID --name N --scopes s1,s2|all [--expires-in-days N]`;

const commands = ["workspace create", "workspace list", "workspace suspend", "workspace unsuspend", "workspace limits", "user create", "key create"];

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
  if (typeof v !== "string" || v === "") throw badRequest(`--${name} is required\n${usage}`);
  return v;
}

/** "12" -> 12, "null" -> null (unlimited), else a BAD_REQUEST naming the option. */
function count(values: Values, name: keyof Values, nullable: boolean): number | null | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  if (nullable && v === "null") return null;
  if (typeof v !== "string" || !/^\d+$/.test(v)) throw badRequest(`--${name} must be a whole number${nullable ? " or null" : ""}`);
  return Number(v);
}

async function run(positionals: string[], values: Values): Promise<{ json: unknown; text: string }> {
  const [group, command, arg] = positionals;
  const id = () => {
    if (!arg) throw badRequest(`${group} ${command} needs an ID\n${usage}`);
    return arg;
  };
  switch (`${group} ${command}`) {
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
      const r = await setSuspended(systemCtx(w.id, CLI), command === "suspend");
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
    default:
      throw badRequest(`Unknown command: ${positionals.join(" ") || "(none)"}\n${usage}`);
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
    if (values.help || positionals.length === 0) {
      if (json) throw badRequest(usage);
      console.log(usage);
      return;
    }
    if (!commands.includes(`${positionals[0]} ${positionals[1]}`)) throw badRequest(`Unknown command: ${positionals.join(" ")}\n${usage}`);
    ({ embedded } = await openDatabase());
    const out = await run(positionals, values);
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
            : new AppError("INTERNAL", (err as Error).message);
    if (json) {
      console.log(JSON.stringify({ error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) } }));
    } else {
      console.error(`Error (${e.code}): ${e.message}`);
    }
    if (errorCodes[e.code].status >= 500) exitCode = 2;
  } finally {
    await closeDb().catch(() => {});
    if (embedded?.startedHere) embedded.stop();
  }
  process.exit(exitCode);
}

void main();
