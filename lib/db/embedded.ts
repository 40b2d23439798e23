import { execFileSync, spawnSync } from "node:child_process";
import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { protectDataDir, writePrivateFile } from "../private-files";

/**
 * The embedded database used when DATABASE_URL is unset: a real PostgreSQL cluster in a project
 * folder (`.data/postgres`), run with the system's PostgreSQL binaries, listening on 127.0.0.1 only
 * and asking every connection for the password generated beside it (`.data/postgres.password`,
 * mode 0600, checked with scram-sha-256). Anyone who can open a local port is not thereby a
 * superuser. PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user.
 */
export type EmbeddedOptions = {
  /** The cluster folder, e.g. /srv/folio/.data/postgres. */
  dir: string;
  database?: string;
  /** Extra postgresql.conf lines written at initdb (tests turn fsync off). */
  extraConf?: string[];
};

/** `url` carries the password: pass it to processes, never print it. */
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

/**
 * Whether this process hands capabilities on to the programs it runs: the container's service user
 * holds CAP_SETUID, CAP_SETGID, CAP_CHOWN and CAP_KILL as ambient ones (docs/architecture.md, "One container").
 */
function passesCapabilitiesOn(): boolean {
  try {
    return /^CapAmb:\s*0*[1-9a-f]/m.test(fs.readFileSync("/proc/self/status", "utf8"));
  } catch {
    return false;
  }
}

/**
 * Runs a PostgreSQL binary as the cluster's owner: `postgres` when we are root, else ourselves.
 * why setpriv: the server needs none of the capabilities the container's service user holds to
 * start the browser as another user; clearing the inheritable set clears the ambient one.
 */
export function runAsClusterOwner(bin: string, args: string[], opts: { allowFail?: boolean } = {}) {
  const [cmd, argv] = isRoot()
    ? ["runuser", ["-u", "postgres", "--", bin, ...args]]
    : passesCapabilitiesOn()
      ? ["/usr/bin/setpriv", ["--inh-caps=-all", "--", bin, ...args]]
      : [bin, args];
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

function passwordFile(dir: string) {
  return `${dir}.password`;
}

function clusterUrl(port: number, password: string, database: string) {
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/**
 * Creates the cluster if needed, starts it if it is not running, makes it ask for the password
 * (upgrading a cluster from an earlier version that trusted local connections), and creates the
 * database. Returns only once the server refuses a connection without the password.
 */
export async function ensureEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedPostgres> {
  const bin = findPostgresBinDir();
  if (!bin) {
    throw new Error("No PostgreSQL server binaries found. Run `npm run quickstart` (installs them) or set DATABASE_URL.");
  }
  const dir = path.resolve(opts.dir);
  const database = opts.database ?? "folio";
  protectDataDir(path.dirname(dir));

  const password = ensurePassword(dir);
  if (!fs.existsSync(path.join(dir, "PG_VERSION"))) await initCluster(bin, dir, password, opts.extraConf ?? []);
  const port = Number((await portFileOf(dir)).trim());
  const startedHere = startCluster(bin, dir);
  await requirePassword(dir, port, password);

  try {
    await createDatabase(clusterUrl(port, password, "postgres"), database);
  } catch (e) {
    if ((e as { code?: string }).code !== "28P01") throw e;
    throw new Error(`The embedded PostgreSQL in ${dir} refused the password in ${passwordFile(dir)}; restore that file from the backup of DATA_DIR it belongs to`);
  }
  return { url: clusterUrl(port, password, database), startedHere, stop: () => stopEmbeddedPostgres(dir) };
}

/**
 * The cluster's password: the one in the file beside it, else a new one. Two processes starting at
 * once agree: each writes a whole candidate and links it into place, and the one that loses reads
 * the winner's (a file opened with `wx` could be read before its content is written).
 */
function ensurePassword(dir: string): string {
  const file = passwordFile(dir);
  if (!fs.existsSync(file)) {
    const candidate = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(candidate, randomBytes(32).toString("base64url") + "\n", { mode: 0o600 });
    try {
      fs.linkSync(candidate, file);
    } catch (e) {
      if ((e as { code?: string }).code !== "EEXIST") throw e;
    } finally {
      fs.rmSync(candidate, { force: true });
    }
  }
  const password = fs.readFileSync(file, "utf8").trim();
  if (!password) throw new Error(`${file} is empty; restore it from the backup of DATA_DIR it belongs to`);
  return password;
}

/**
 * initdb with password authentication from the first start; the port is chosen here and kept. Two
 * processes starting at once (the test suite's vitest and journeys) agree: each makes a whole
 * cluster in a folder of its own and renames it into place; the one that loses throws its own away
 * and waits for the winner's port file.
 */
async function initCluster(bin: string, dir: string, password: string, extraConf: string[]) {
  const mine = `${dir}.${process.pid}.${randomBytes(4).toString("hex")}.init`;
  fs.rmSync(mine, { recursive: true, force: true });
  fs.mkdirSync(mine, { recursive: true, mode: 0o700 });
  if (isRoot()) execFileSync("chown", ["-R", "postgres:postgres", mine]);
  withPasswordReadableByOwner(password, (pwfile) =>
    runAsClusterOwner(path.join(bin, "initdb"), [
      "-D", mine, "-U", "postgres", "--auth-local=peer", "--auth-host=scram-sha-256", `--pwfile=${pwfile}`,
      "-E", "UTF8", "--no-locale", "--no-instructions",
    ]),
  );
  const port = await freePort();
  const conf = [
    "",
    "# Folio embedded database",
    "listen_addresses = '127.0.0.1'",
    `port = ${port}`,
    "unix_socket_directories = ''",
    "password_encryption = 'scram-sha-256'",
    "max_connections = 200",
    ...extraConf,
  ];
  fs.appendFileSync(path.join(mine, "postgresql.conf"), conf.join("\n") + "\n");
  try {
    // why rmdir first: an empty folder left there (an earlier version made it before initdb) is no cluster.
    if (fs.existsSync(dir) && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
    fs.renameSync(mine, dir);
  } catch (e) {
    fs.rmSync(mine, { recursive: true, force: true });
    if (!["ENOTEMPTY", "EEXIST"].includes((e as { code?: string }).code ?? "")) throw e;
    // Another process made the cluster a moment ago (its port file follows: portFileOf waits for it).
    return;
  }
  writePrivateFile(portFile(dir), String(port));
}

/** The cluster's port file's text; a cluster another process has just made gets its file a moment later. */
async function portFileOf(dir: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (!fs.existsSync(portFile(dir))) {
    if (Date.now() > deadline) throw new Error(`The embedded PostgreSQL in ${dir} has no ${portFile(dir)}; restore it from the backup of DATA_DIR it belongs to`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return fs.readFileSync(portFile(dir), "utf8");
}

/**
 * Calls `fn` with a file holding the password that the cluster's owner can read, removed afterwards.
 * why: as root the password file beside the cluster is root's and mode 0600, and initdb runs as `postgres`.
 */
function withPasswordReadableByOwner<T>(password: string, fn: (file: string) => T): T {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "folio-initdb-"));
  try {
    const file = path.join(tmp, "pwfile");
    fs.writeFileSync(file, password, { mode: 0o600 });
    if (isRoot()) execFileSync("chown", ["-R", "postgres:postgres", tmp]);
    return fn(file);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Starts the server unless it runs; tells whether this call started it. */
function startCluster(bin: string, dir: string): boolean {
  const pgCtl = path.join(bin, "pg_ctl");
  if (runAsClusterOwner(pgCtl, ["status", "-D", dir], { allowFail: true }).status === 0) return false;
  const r = runAsClusterOwner(pgCtl, ["start", "-D", dir, "-w", "-t", "60", "-l", path.join(dir, "server.log")], { allowFail: true });
  // why: another command may have started it a moment ago; that is fine as long as it now runs.
  if (r.status !== 0 && runAsClusterOwner(pgCtl, ["status", "-D", dir], { allowFail: true }).status !== 0) {
    const log = fs.existsSync(path.join(dir, "server.log")) ? fs.readFileSync(path.join(dir, "server.log"), "utf8").slice(-2000) : "";
    throw new Error(`Could not start the embedded PostgreSQL in ${dir}: ${r.stderr}\n${log}`);
  }
  return r.status === 0;
}

/**
 * Makes the running server ask every connection for the password. A cluster made by an earlier
 * version trusts every connection to its port, so while it still does, this gives the `postgres`
 * role the password, replaces `trust` in pg_hba.conf and reloads. The check runs on every start and
 * each step can be repeated, so an upgrade cut short (or one racing another process) finishes.
 */
async function requirePassword(dir: string, port: number, password: string) {
  if (!(await letsInWithoutPassword(port))) return;
  // why: under trust the server asks for no password, so the URL with it connects before and after.
  const sql = postgres(clusterUrl(port, password, "postgres"), { max: 1, onnotice: () => {} });
  try {
    // why: ALTER ROLE takes no bind parameter; a verifier holds no quote and, logged, no password.
    await sql.unsafe(`alter role postgres password '${scramVerifier(password)}'`);
    replaceTrustInHba(path.join(dir, "pg_hba.conf"));
    await sql`select pg_reload_conf()`;
  } finally {
    await sql.end({ timeout: 5 });
  }
  // why: the reload is a signal the server handles a moment later.
  const deadline = Date.now() + 10_000;
  while (await letsInWithoutPassword(port)) {
    if (Date.now() > deadline) {
      throw new Error(`The embedded PostgreSQL in ${dir} still lets connections in without a password after reloading pg_hba.conf; see its server.log`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Whether the server lets `postgres` in without a password: it answers the startup message with
 * AuthenticationOk rather than a password request or an error. The probe hangs up before
 * answering, which the server does not log as a failed login.
 */
function letsInWithoutPassword(port: number): Promise<boolean> {
  const params = Buffer.from("user\0postgres\0database\0postgres\0\0");
  const header = Buffer.alloc(8);
  header.writeInt32BE(8 + params.length, 0);
  header.writeInt32BE(196_608, 4); // protocol 3.0
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(Buffer.concat([header, params])));
    let reply = Buffer.alloc(0);
    socket.setTimeout(10_000, () => socket.destroy(new Error(`No answer from the embedded PostgreSQL on port ${port}`)));
    socket.on("data", (chunk: Buffer) => {
      reply = Buffer.concat([reply, chunk]);
      if (reply.length < 9) return;
      socket.destroy();
      resolve(reply[0] === "R".charCodeAt(0) && reply.readInt32BE(5) === 0);
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(false));
  });
}

/**
 * The scram-sha-256 verifier PostgreSQL stores for a password (RFC 5802; what psql's \password
 * sends). The generated password is ASCII, which SASLprep leaves as it is.
 */
function scramVerifier(password: string, iterations = 4096): string {
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password, salt, iterations, 32, "sha256");
  const hmac = (text: string) => createHmac("sha256", salted).update(text).digest();
  const storedKey = createHash("sha256").update(hmac("Client Key")).digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString("base64")}$${storedKey.toString("base64")}:${hmac("Server Key").toString("base64")}`;
}

/**
 * Rewrites pg_hba.conf with every `trust` method replaced: peer on the Unix socket, scram-sha-256
 * over TCP. Written to a new file and renamed, with the owner and mode of the old one, so the
 * server never reads half a file.
 */
function replaceTrustInHba(file: string) {
  const text = fs.readFileSync(file, "utf8");
  const rewritten = text
    .split("\n")
    .map((line) =>
      line.replace(/^(\s*(\w+)\s.*\s)trust(\s*(?:#.*)?)$/, (_, head: string, type: string, tail: string) =>
        `${head}${type === "local" ? "peer" : "scram-sha-256"}${tail}`),
    )
    .join("\n");
  if (rewritten === text) return;
  const st = fs.statSync(file);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, rewritten, { mode: st.mode & 0o777 });
  fs.chownSync(tmp, st.uid, st.gid);
  fs.renameSync(tmp, file);
}

export async function createDatabase(adminUrl: string, database: string) {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`select 1 from pg_database where datname = ${database}`;
    if (rows.length === 0) {
      try {
        await sql.unsafe(`create database "${database.replace(/"/g, '""')}"`);
      } catch (e) {
        // 42P04: created meanwhile by another process; 23505: the same, caught by the catalog's
        // unique index when both creations ran at the same moment.
        if (!["42P04", "23505"].includes((e as { code?: string }).code ?? "")) throw e;
      }
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export function stopEmbeddedPostgres(dir: string) {
  const bin = findPostgresBinDir();
  if (!bin || !fs.existsSync(path.join(dir, "PG_VERSION"))) return;
  runAsClusterOwner(path.join(bin, "pg_ctl"), ["stop", "-D", path.resolve(dir), "-m", "fast", "-w"], { allowFail: true });
}
