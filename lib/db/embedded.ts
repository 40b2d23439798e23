import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import postgres from "postgres";

/**
 * The embedded database used when DATABASE_URL is unset: a real PostgreSQL cluster in a project
 * folder (`.data/postgres`), run with the system's PostgreSQL binaries, listening on 127.0.0.1 only.
 * PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user.
 */
export type EmbeddedOptions = {
  /** The cluster folder, e.g. /srv/folio/.data/postgres. */
  dir: string;
  database?: string;
  /** Extra postgresql.conf lines written at initdb (tests turn fsync off). */
  extraConf?: string[];
};

export type EmbeddedPostgres = { url: string; startedHere: boolean; stop: () => void };

export function findPostgresBinDir(): string | null {
  const roots = ["/usr/lib/postgresql"];
  for (const root of roots) {
    if (!fs.existsSync(root)) continue;
    const versions = fs
      .readdirSync(root)
      .filter((v) => fs.existsSync(path.join(root, v, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(root, versions[0], "bin");
  }
  const fromPath = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" }).stdout.trim();
  return fromPath ? path.dirname(fromPath) : null;
}

const isRoot = () => process.getuid?.() === 0;

function run(bin: string, args: string[], opts: { allowFail?: boolean } = {}) {
  const [cmd, argv] = isRoot() ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  const r = spawnSync(cmd, argv, { encoding: "utf8", cwd: "/" });
  if (r.status !== 0 && !opts.allowFail) {
    throw new Error(`${path.basename(bin)} ${args.join(" ")} failed (exit ${r.status}): ${r.stderr || r.stdout}`);
  }
  return r;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

function portFile(dir: string) {
  return `${dir}.port`;
}

/** Creates the cluster if needed, starts it if it is not running, and creates the database. */
export async function ensureEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedPostgres> {
  const bin = findPostgresBinDir();
  if (!bin) {
    throw new Error("No PostgreSQL server binaries found. Run `npm run quickstart` (installs them) or set DATABASE_URL.");
  }
  const dir = path.resolve(opts.dir);
  const database = opts.database ?? "folio";
  fs.mkdirSync(path.dirname(dir), { recursive: true });

  if (!fs.existsSync(path.join(dir, "PG_VERSION"))) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (isRoot()) execFileSync("chown", ["-R", "postgres:postgres", dir]);
    run(path.join(bin, "initdb"), ["-D", dir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-instructions"]);
    const port = await freePort();
    const conf = [
      "",
      "# Folio embedded database",
      "listen_addresses = '127.0.0.1'",
      `port = ${port}`,
      "unix_socket_directories = ''",
      "max_connections = 200",
      ...(opts.extraConf ?? []),
    ];
    fs.appendFileSync(path.join(dir, "postgresql.conf"), conf.join("\n") + "\n");
    fs.writeFileSync(portFile(dir), String(port));
  }
  const port = Number(fs.readFileSync(portFile(dir), "utf8").trim());

  let startedHere = false;
  if (run(path.join(bin, "pg_ctl"), ["status", "-D", dir], { allowFail: true }).status !== 0) {
    const r = run(path.join(bin, "pg_ctl"), ["start", "-D", dir, "-w", "-t", "60", "-l", path.join(dir, "server.log")], { allowFail: true });
    // why: another command may have started it a moment ago; that is fine as long as it now runs.
    if (r.status !== 0 && run(path.join(bin, "pg_ctl"), ["status", "-D", dir], { allowFail: true }).status !== 0) {
      const log = fs.existsSync(path.join(dir, "server.log")) ? fs.readFileSync(path.join(dir, "server.log"), "utf8").slice(-2000) : "";
      throw new Error(`Could not start the embedded PostgreSQL in ${dir}: ${r.stderr}\n${log}`);
    }
    startedHere = r.status === 0;
  }

  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await createDatabase(adminUrl, database);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/${database}`,
    startedHere,
    stop: () => stopEmbeddedPostgres(dir),
  };
}

export async function createDatabase(adminUrl: string, database: string) {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`select 1 from pg_database where datname = ${database}`;
    if (rows.length === 0) {
      try {
        await sql.unsafe(`create database "${database.replace(/"/g, '""')}"`);
      } catch (e) {
        // 42P04: created meanwhile by another process.
        if ((e as { code?: string }).code !== "42P04") throw e;
      }
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export function stopEmbeddedPostgres(dir: string) {
  const bin = findPostgresBinDir();
  if (!bin || !fs.existsSync(path.join(dir, "PG_VERSION"))) return;
  run(path.join(bin, "pg_ctl"), ["stop", "-D", path.resolve(dir), "-m", "fast", "-w"], { allowFail: true });
}
