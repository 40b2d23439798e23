import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../testing/server";
import { ensureEmbeddedPostgres, findPostgresBinDir, runAsClusterOwner, stopEmbeddedPostgres, type EmbeddedPostgres } from "./embedded";

/**
 * Real clusters in a folder of their own: one made now, and one made the way earlier versions did
 * (trust on 127.0.0.1) that is upgraded on its next start. initdb takes seconds, so only these two.
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), "folio-embedded-"));
// why: as root the clusters belong to `postgres`, which must pass through this folder to reach them.
fs.chmodSync(root, 0o755);
const bin = findPostgresBinDir()!;
const fast = ["fsync = off", "synchronous_commit = off", "full_page_writes = off"];

afterAll(() => {
  for (const name of ["fresh", "old", "raced"]) stopEmbeddedPostgres(path.join(root, name));
  fs.rmSync(root, { recursive: true, force: true });
});

/** The SQLSTATE the server refuses a connection with, or undefined when it lets it in. */
async function refusal(url: string): Promise<string | undefined> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    await sql`select 1`;
    return undefined;
  } catch (e) {
    return (e as { code?: string }).code;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function withPassword(url: string, password: string) {
  const u = new URL(url);
  u.password = password;
  return u.toString();
}

/** pg_hba.conf without comments and blank lines. */
function hbaRules(dir: string) {
  return fs
    .readFileSync(path.join(dir, "pg_hba.conf"), "utf8")
    .split("\n")
    .filter((l) => l.trim() && !l.trim().startsWith("#"));
}

function expectPasswordRequired(dir: string, url: string) {
  expect(fs.statSync(`${dir}.password`).mode & 0o777).toBe(0o600);
  expect(decodeURIComponent(new URL(url).password)).toBe(fs.readFileSync(`${dir}.password`, "utf8").trim());
  expect(hbaRules(dir).length).toBeGreaterThan(0);
  expect(hbaRules(dir).filter((l) => /\btrust\b/.test(l))).toEqual([]);
}

describe("a new embedded cluster", () => {
  const dir = path.join(root, "fresh");
  let pg: EmbeddedPostgres;

  beforeAll(async () => {
    pg = await ensureEmbeddedPostgres({ dir, database: "folio", extraConf: fast });
  }, 120_000);

  it("lets in the generated password and refuses a connection without one or with a wrong one", async () => {
    expect(await refusal(pg.url)).toBeUndefined();
    expect(await refusal(withPassword(pg.url, ""))).toBe("28P01");
    expect(await refusal(withPassword(pg.url, "wrong"))).toBe("28P01");
  });

  it("keeps the password beside the cluster in a file only its owner reads, and pg_hba.conf trusts no one", () => {
    expectPasswordRequired(dir, pg.url);
  });

  it("gives a second command the same URL and leaves the server to the one that started it", async () => {
    const again = await ensureEmbeddedPostgres({ dir, database: "folio" });
    expect(again.url).toBe(pg.url);
    expect(again.startedHere).toBe(false);
  });
});

describe("two commands making the same new cluster at once", () => {
  it("agree on one cluster and one URL, and leave no half-made folder", async () => {
    const dir = path.join(root, "raced");
    const [a, b] = await Promise.all([ensureEmbeddedPostgres({ dir, database: "folio", extraConf: fast }), ensureEmbeddedPostgres({ dir, database: "folio", extraConf: fast })]);
    expect(a.url).toBe(b.url);
    expect(await refusal(a.url)).toBeUndefined();
    expect(fs.readdirSync(root).filter((n) => n.startsWith("raced")).sort()).toEqual(["raced", "raced.password", "raced.port"]);
  }, 120_000);
});

describe("a cluster made by an earlier version, which trusted every local connection", () => {
  const dir = path.join(root, "old");

  beforeAll(async () => {
    fs.mkdirSync(dir, { mode: 0o700 });
    if (process.getuid?.() === 0) execFileSync("chown", ["postgres:postgres", dir]);
    runAsClusterOwner(path.join(bin, "initdb"), ["-D", dir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-instructions"]);
    const port = await freePort();
    const conf = ["listen_addresses = '127.0.0.1'", `port = ${port}`, "unix_socket_directories = ''", ...fast];
    fs.appendFileSync(path.join(dir, "postgresql.conf"), conf.join("\n") + "\n");
    fs.writeFileSync(`${dir}.port`, String(port));
    runAsClusterOwner(path.join(bin, "pg_ctl"), ["start", "-D", dir, "-w", "-t", "60", "-l", path.join(dir, "server.log")]);
    const sql = postgres(`postgres://postgres@127.0.0.1:${port}/postgres`, { max: 1, onnotice: () => {} });
    try {
      await sql`create table kept (id int primary key, note text not null)`;
      await sql`insert into kept values (1, 'one'), (2, 'two'), (3, 'three')`;
    } finally {
      await sql.end({ timeout: 5 });
    }
    stopEmbeddedPostgres(dir);
  }, 120_000);

  it("is upgraded in place on its next start: the rows are kept and a connection without the password is refused", async () => {
    expect(fs.existsSync(`${dir}.password`)).toBe(false);
    const pg = await ensureEmbeddedPostgres({ dir, database: "postgres" });
    expect(pg.startedHere).toBe(true);

    const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
    try {
      expect(await sql`select id, note from kept order by id`).toEqual([
        { id: 1, note: "one" },
        { id: 2, note: "two" },
        { id: 3, note: "three" },
      ]);
    } finally {
      await sql.end({ timeout: 5 });
    }
    expect(await refusal(withPassword(pg.url, ""))).toBe("28P01");
    expectPasswordRequired(dir, pg.url);
  });
});
