import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { config, ConfigError, resetConfigForTests } from "./config";

// Every variable config() reads; each case starts from none of them set.
const VARIABLES = [
  "DATA_DIR", "DATABASE_URL", "PUBLIC_URL", "PORT", "HOST", "SECRET_KEY", "FILE_STORE", "FILE_STORE_S3_ENDPOINT",
  "FILE_STORE_S3_REGION", "FILE_STORE_S3_BUCKET", "FILE_STORE_S3_ACCESS_KEY_ID", "FILE_STORE_S3_SECRET_ACCESS_KEY",
  "FILE_STORE_S3_FORCE_PATH_STYLE", "CHROMIUM_PATH", "CHROMIUM_USER", "WORKER_CONCURRENCY", "DEPLOYMENT_MODE", "RETENTION_DAYS",
  "WEBHOOK_ALLOW_PRIVATE_NETWORKS", "DESTINATION_ALLOW_PRIVATE_NETWORKS", "RENDER_TIMEOUT_MS", "RENDER_MAX_PAGES",
  "RENDER_MAX_OUTPUT_BYTES", "RENDER_MAX_INPUT_BYTES", "RENDER_MAX_WASM_BYTES", "RENDER_MAX_HEAP_BYTES",
  "WORKER_MEMORY_LIMIT", "API_RATE_LIMIT_PER_MINUTE", "MCP_RATE_LIMIT_PER_MINUTE", "TRUSTED_PROXY_RANGES", "DEPLOY_API_KEY", "ADMIN_EMAIL",
  "ADMIN_PASSWORD", "LOG_LEVEL", "FOLIO_PROCESS", "WORKER_HEALTH_PORT", "WORKER_HEALTH_HOST", "REPORTS_WAIT_MS", "SMTP_URL", "MAIL_FROM",
  "DATABASE_CONNECT_TIMEOUT_SECONDS", "DATABASE_STATEMENT_TIMEOUT_MS",
];

const GOOD_SECRET = Buffer.alloc(32, 1).toString("base64");

let saved: NodeJS.ProcessEnv;
let dataDir: string;

beforeEach(() => {
  saved = { ...process.env };
  for (const v of VARIABLES) delete process.env[v];
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-config-"));
  process.env.DATA_DIR = dataDir;
  resetConfigForTests();
});

afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
  resetConfigForTests();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Runs config() with the given variables and returns the ConfigError it must throw. */
function refusal(env: Record<string, string>): ConfigError {
  Object.assign(process.env, { SECRET_KEY: GOOD_SECRET }, env);
  try {
    config();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error(`config() accepted ${JSON.stringify(env)}`);
}

describe("config(): a bad value stops start-up naming the variable", () => {
  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["PORT", "0"],
    ["RENDER_MAX_PAGES", "201"],
    ["RENDER_MAX_OUTPUT_BYTES", String(50 * 1024 * 1024 + 1)],
    ["RENDER_MAX_INPUT_BYTES", String(10 * 1024 * 1024 + 1)],
    ["RENDER_TIMEOUT_MS", "500"],
    ["RENDER_TIMEOUT_MS", "3600001"],
    ["DEPLOYMENT_MODE", "cloud"],
    ["PUBLIC_URL", "ftp://x"],
    ["PUBLIC_URL", "not a url"],
    ["TRUSTED_PROXY_RANGES", "10.0.0.0/33"],
    ["TRUSTED_PROXY_RANGES", "10.0.0.0/8, example.com"],
    ["RETENTION_DAYS", "0"],
    ["API_RATE_LIMIT_PER_MINUTE", "1.5"],
    ["DATABASE_URL", "mysql://x"],
    ["LOG_LEVEL", "loud"],
    ["ADMIN_EMAIL", "not an address"],
    ["SMTP_URL", "http://mail.example.com"],
    ["SMTP_URL", "not a url"],
    ["MAIL_FROM", "Folio <no-address>"],
  ])("%s=%s", (name, value) => {
    const e = refusal({ [name]: value });
    expect(e.message).toMatch(new RegExp(`\\b${name}\\b`));
  });

  it("accepts the largest allowed values (the bounds above are the real ones)", () => {
    Object.assign(process.env, { SECRET_KEY: GOOD_SECRET, PORT: "65535", RENDER_MAX_PAGES: "200", RENDER_TIMEOUT_MS: "1000" });
    const c = config();
    expect(c.PORT).toBe(65535);
    expect(c.RENDER_MAX_PAGES).toBe(200);
    expect(c.RENDER_TIMEOUT_MS).toBe(1000);
  });

  it("takes ADMIN_EMAIL by the one email rule of people: a one-letter or absent top-level domain is fine", () => {
    for (const email of ["admin@localhost", "a@b.c"]) {
      Object.assign(process.env, { SECRET_KEY: GOOD_SECRET, ADMIN_EMAIL: email });
      resetConfigForTests();
      expect(config().ADMIN_EMAIL).toBe(email);
    }
  });

  it("names every bad variable at once", () => {
    const e = refusal({ PORT: "abc", DEPLOYMENT_MODE: "cloud" });
    expect(e.message).toContain("PORT");
    expect(e.message).toContain("DEPLOYMENT_MODE");
  });

  it("FILE_STORE=s3 without bucket and keys names each missing variable", () => {
    const e = refusal({ FILE_STORE: "s3" });
    for (const v of ["FILE_STORE_S3_BUCKET", "FILE_STORE_S3_ACCESS_KEY_ID", "FILE_STORE_S3_SECRET_ACCESS_KEY"]) expect(e.message).toContain(v);
    resetConfigForTests();
    const one = refusal({ FILE_STORE: "s3", FILE_STORE_S3_BUCKET: "b", FILE_STORE_S3_ACCESS_KEY_ID: "id" });
    expect(one.message).toContain("FILE_STORE_S3_SECRET_ACCESS_KEY");
    expect(one.message).not.toContain("FILE_STORE_S3_BUCKET");
  });

  it("accepts FILE_STORE=s3 with bucket and keys", () => {
    Object.assign(process.env, {
      SECRET_KEY: GOOD_SECRET,
      FILE_STORE: "s3",
      FILE_STORE_S3_BUCKET: "b",
      FILE_STORE_S3_ACCESS_KEY_ID: "id",
      FILE_STORE_S3_SECRET_ACCESS_KEY: "key",
    });
    expect(config().FILE_STORE).toBe("s3");
  });

  it("SECRET_KEY shorter than 32 bytes, without echoing the value", () => {
    const short = Buffer.alloc(16, 9).toString("base64");
    const e = refusal({ SECRET_KEY: short });
    expect(e.message).toContain("SECRET_KEY");
    expect(e.message).not.toContain(short);
  });
});

describe("config(): defaults", () => {
  it("uses the documented defaults", () => {
    process.env.SECRET_KEY = GOOD_SECRET;
    const c = config();
    expect(c.PORT).toBe(3000);
    expect(c.RETENTION_DAYS).toBe(30);
    expect(c.API_RATE_LIMIT_PER_MINUTE).toBe(1200);
    expect(c.MCP_RATE_LIMIT_PER_MINUTE).toBe(1200);
    expect(c.PUBLIC_URL).toBe("http://localhost:3000");
    expect(c.DEPLOYMENT_MODE).toBe("self-hosted");
    expect(c.FILE_STORE).toBe("local");
    expect(c.TRUSTED_PROXY_RANGES).toEqual([]);
    expect(c.RENDER_MAX_PAGES).toBe(200);
    expect(c.RENDER_TIMEOUT_MS).toBe(60_000);
    expect(c.WORKER_CONCURRENCY).toBeGreaterThanOrEqual(1);
    expect(c.WORKER_HEALTH_PORT).toBeUndefined();
    expect(c.SECRET_KEY).toEqual(Buffer.alloc(32, 1));
    expect(c.SMTP_URL).toBeUndefined();
    expect(c.MAIL_FROM).toBe("Folio <folio@localhost>");
  });

  it("accepts SMTP_URL with credentials without echoing them when another variable is bad", () => {
    const e = refusal({ SMTP_URL: "smtp://mailer:hunter2-secret@mail.example.com:587", PORT: "abc" });
    expect(e.message).not.toMatch(/hunter2/);
    expect(e.message).not.toMatch(/SMTP_URL/);
  });

  it("binds the worker's health port to loopback whatever HOST says, unless WORKER_HEALTH_HOST is set", () => {
    Object.assign(process.env, { SECRET_KEY: GOOD_SECRET, HOST: "0.0.0.0" });
    expect(config().WORKER_HEALTH_HOST).toBe("127.0.0.1");
    resetConfigForTests();
    process.env.WORKER_HEALTH_HOST = "0.0.0.0";
    expect(config().WORKER_HEALTH_HOST).toBe("0.0.0.0");
  });

  it("treats an empty variable as unset", () => {
    Object.assign(process.env, { SECRET_KEY: GOOD_SECRET, PORT: "", RETENTION_DAYS: "" });
    expect(config().PORT).toBe(3000);
    expect(config().RETENTION_DAYS).toBe(30);
  });

  it("drops trailing slashes from PUBLIC_URL and splits TRUSTED_PROXY_RANGES", () => {
    Object.assign(process.env, { SECRET_KEY: GOOD_SECRET, PUBLIC_URL: "https://folio.example.com/", TRUSTED_PROXY_RANGES: " 10.0.0.0/8 , ::1 " });
    expect(config().PUBLIC_URL).toBe("https://folio.example.com");
    expect(config().TRUSTED_PROXY_RANGES).toEqual(["10.0.0.0/8", "::1"]);
  });
});

describe("config(): SECRET_KEY unset", () => {
  it("generates DATA_DIR/secret-key once, mode 0600, and reads the same key afterwards", () => {
    const file = path.join(dataDir, "secret-key");
    expect(fs.existsSync(file)).toBe(false);
    const first = config().SECRET_KEY;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64")).toEqual(first);

    resetConfigForTests();
    expect(config().SECRET_KEY).toEqual(first);
    expect(Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64")).toEqual(first);
  });

  it("creates DATA_DIR when it does not exist yet", () => {
    const nested = path.join(dataDir, "a", "b");
    process.env.DATA_DIR = nested;
    expect(config().SECRET_KEY.length).toBeGreaterThanOrEqual(32);
    expect(fs.existsSync(path.join(nested, "secret-key"))).toBe(true);
    expect(config().DATA_DIR).toBe(nested);
  });

  it("refuses a secret-key file holding fewer than 32 bytes", () => {
    fs.writeFileSync(path.join(dataDir, "secret-key"), Buffer.alloc(8).toString("base64"));
    expect(() => config()).toThrow(ConfigError);
    expect(() => config()).toThrow(/SECRET_KEY/);
  });

  it("does not write a key file when SECRET_KEY is set", () => {
    process.env.SECRET_KEY = GOOD_SECRET;
    config();
    expect(fs.existsSync(path.join(dataDir, "secret-key"))).toBe(false);
  });
});
