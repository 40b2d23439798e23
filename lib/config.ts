import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { parseCidr } from "./net/addresses";
import { Email } from "./email";
import { protectDataDir, writePrivateFile } from "./private-files";

/**
 * The only reader of process.env. Every variable of decisions.md is validated here; a bad value
 * stops start-up with a message naming the variable.
 */

const MiB = 1024 * 1024;

const bool = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((v) => v === "true" || v === "1" || v === "yes");

const int = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

const cidr = z.string().refine((s) => parseCidr(s) !== null, "must be an IP address or CIDR range");

const EnvSchema = z.object({
  DATA_DIR: z.string().min(1).default(".data"),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL").optional(),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).default("http://localhost:3000"),
  PORT: int(1, 65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  SECRET_KEY: z
    .string()
    .refine((s) => Buffer.from(s, "base64").length >= 32, "must be at least 32 bytes, base64-encoded")
    .optional(),
  FILE_STORE: z.enum(["local", "s3"]).default("local"),
  FILE_STORE_S3_ENDPOINT: z.url().optional(),
  FILE_STORE_S3_REGION: z.string().min(1).default("us-east-1"),
  FILE_STORE_S3_BUCKET: z.string().min(1).optional(),
  FILE_STORE_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  FILE_STORE_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  FILE_STORE_S3_FORCE_PATH_STYLE: bool.default(false),
  CHROMIUM_PATH: z.string().min(1).default("/usr/bin/chromium-headless-shell"),
  /** The unprivileged user the worker's browser runs as when the worker runs as root (scripts/ensure-system.sh creates it). */
  CHROMIUM_USER: z.string().regex(/^[a-z_][a-z0-9_-]*$/, "must be a user name").default("folio-render"),
  /**
   * The unprivileged user every process that runs callers' code or parses callers' bytes runs as
   * (the browser, pdftoppm, the template sandbox, the font and PDF helpers) when Folio may switch
   * users; CHROMIUM_USER is its older name, still read when this one is not set.
   */
  RENDER_USER: z.string().regex(/^[a-z_][a-z0-9_-]*$/, "must be a user name").optional(),
  WORKER_CONCURRENCY: int(1, 64).optional(),
  /**
   * How long a worker's claim on a render lasts without renewal: a killed worker's render is taken
   * back this long after its last renewal. why not in the README: operators have no reason to
   * change it (shorter only takes renders from slow but live workers sooner); the crash tests
   * shorten it so a killed worker's render comes back in a few seconds rather than 15.
   */
  RENDER_LEASE_MS: int(1000, 3_600_000).default(15_000),
  /** When set, the worker answers GET /healthz and /readyz on this port. */
  WORKER_HEALTH_PORT: int(1, 65535).optional(),
  /** The interface of the worker's health port; loopback unless an orchestrator must reach it from outside. */
  WORKER_HEALTH_HOST: z.string().min(1).default("127.0.0.1"),
  DEPLOYMENT_MODE: z.enum(["self-hosted", "hosted"]).default("self-hosted"),
  /**
   * The worker refuses to start unless its browser runs with Chromium's sandbox and as a user of
   * its own (CHROMIUM_USER, so the worker must run as root). Default: on when hosted, off otherwise.
   */
  RENDERER_REQUIRE_SANDBOX: bool.optional(),
  RETENTION_DAYS: int(1, 3650).default(30),
  /**
   * How long a new database connection may take before the request that needed it fails as
   * unavailable (503); also how long a statement waits for an answer before Folio checks that the
   * database still answers at all (lib/db/watchdog.ts), and how long /readyz waits for its select 1.
   */
  DATABASE_CONNECT_TIMEOUT_SECONDS: int(1, 600).default(5),
  /** PostgreSQL's statement_timeout for the web and worker processes' statements; 0 is none (migrations have none). */
  DATABASE_STATEMENT_TIMEOUT_MS: int(0, 3_600_000).default(60_000),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: bool.default(false),
  DESTINATION_ALLOW_PRIVATE_NETWORKS: bool.default(false),
  // spec: Limits > Self-hosted settings that change limits
  RENDER_TIMEOUT_MS: int(1_000, 3_600_000).default(60_000),
  /** How long the Reports API and file previews wait for their render before 504 (spec: 95 seconds). */
  REPORTS_WAIT_MS: int(100, 3_600_000).default(95_000),
  RENDER_MAX_PAGES: int(1, 200).default(200),
  RENDER_MAX_OUTPUT_BYTES: int(1, 50 * MiB).default(50 * MiB),
  RENDER_MAX_INPUT_BYTES: int(1, 10 * MiB).default(10 * MiB),
  RENDER_MAX_WASM_BYTES: int(MiB, 16 * 1024 * MiB).default(512 * MiB),
  RENDER_MAX_HEAP_BYTES: int(MiB, 16 * 1024 * MiB).default(256 * MiB),
  WORKER_MEMORY_LIMIT: int(64 * MiB, 256 * 1024 * MiB).optional(),
  API_RATE_LIMIT_PER_MINUTE: int(1, 10_000_000).default(1200),
  /** spec: Limits > Request rates: the tool-protocol (MCP) server's own count per client address, apart from /v1's. */
  MCP_RATE_LIMIT_PER_MINUTE: int(1, 10_000_000).default(1200),
  TRUSTED_PROXY_RANGES: z
    .string()
    .default("")
    .transform((s) => s.split(",").map((x) => x.trim()).filter(Boolean))
    .pipe(z.array(cidr)),
  DEPLOY_API_KEY: z
    .string()
    .regex(/^folio_[A-Za-z0-9]{40}$/, "must be folio_ followed by 40 letters or digits")
    .optional(),
  ADMIN_EMAIL: Email.default("admin@localhost"),
  ADMIN_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
  /** Outgoing mail (invitations, password resets): smtp://user:pass@host:587 or smtps://...:465. Unset: no mail is sent. */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  /** The From of Folio's mail: an address, or "Name <address>". */
  MAIL_FROM: z
    .string()
    .regex(/^([^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/, "must be an address or Name <address>")
    .default("Folio <folio@localhost>"),
  /** How long a console session lasts from sign-in, in hours, however often it is used. */
  SESSION_MAX_AGE_HOURS: int(1, 720).default(12),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /**
   * The web server starts the template sandbox's warm processes at its start (default), or at the
   * first sandbox job (false: a lighter start; the suite's own servers, lib/testing/global-setup.ts).
   */
  FOLIO_WARM_SANDBOX: bool.default(true),
  /** Internal: which entry point this process is; set by the start commands. The CLI logs to stderr. */
  FOLIO_PROCESS: z.enum(["web", "worker", "cli", "test"]).default("web"),
});

type Env = z.infer<typeof EnvSchema>;

export type Config = Omit<Env, "SECRET_KEY" | "WORKER_CONCURRENCY" | "RENDERER_REQUIRE_SANDBOX"> & {
  SECRET_KEY: Buffer;
  RENDERER_REQUIRE_SANDBOX: boolean;
  WORKER_CONCURRENCY: number;
  DATA_DIR: string;
};

export class ConfigError extends Error {}

let cached: Config | undefined;

/** Reads and validates the environment once; throws ConfigError naming each bad variable. */
export function config(): Config {
  if (cached) return cached;
  const source: Record<string, string | undefined> = {};
  for (const key of Object.keys(EnvSchema.shape)) {
    const v = process.env[key];
    if (v !== undefined && v !== "") source[key] = v;
  }
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  if (env.FILE_STORE === "s3") {
    const missing = (["FILE_STORE_S3_BUCKET", "FILE_STORE_S3_ACCESS_KEY_ID", "FILE_STORE_S3_SECRET_ACCESS_KEY"] as const).filter(
      (k) => !env[k],
    );
    if (missing.length) throw new ConfigError(`Invalid configuration:\n${missing.map((k) => `  ${k}: required when FILE_STORE=s3`).join("\n")}`);
  }
  const dataDir = path.resolve(env.DATA_DIR);
  cached = {
    ...env,
    DATA_DIR: dataDir,
    PUBLIC_URL: env.PUBLIC_URL.replace(/\/+$/, ""),
    SECRET_KEY: env.SECRET_KEY ? Buffer.from(env.SECRET_KEY, "base64") : loadOrCreateSecretKey(dataDir),
    WORKER_CONCURRENCY: env.WORKER_CONCURRENCY ?? Math.max(1, os.availableParallelism()),
    RENDERER_REQUIRE_SANDBOX: env.RENDERER_REQUIRE_SANDBOX ?? env.DEPLOYMENT_MODE === "hosted",
  };
  return cached;
}

/** For tests that change the environment between cases. */
export function resetConfigForTests() {
  cached = undefined;
}

function loadOrCreateSecretKey(dataDir: string): Buffer {
  const file = path.join(dataDir, "secret-key");
  protectDataDir(dataDir);
  try {
    // why: "wx" makes two processes starting at once agree on one key: the loser reads the winner's.
    writePrivateFile(file, randomBytes(32).toString("base64") + "\n", "wx");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  const key = Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
  if (key.length < 32) throw new ConfigError(`Invalid configuration:\n  SECRET_KEY: ${file} holds fewer than 32 bytes`);
  return key;
}
