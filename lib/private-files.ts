import fs from "node:fs";
import path from "node:path";

/**
 * DATA_DIR holds the secret key, the embedded cluster's password and every stored file, so what
 * Folio creates under it is its own user's only: folders 0700, files 0600, whichever process (web,
 * worker, CLI, start) creates them first. The modes are given at creation, so the process's umask
 * can only take bits away, never add them (docs/architecture.md, Threat model).
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` and any missing parent 0700; folders that exist keep their mode. */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Writes a file created 0600 (an existing file keeps its mode); `flag` as for fs.writeFileSync ("wx": only if absent). */
export function writePrivateFile(file: string, data: string | Uint8Array, flag = "w"): void {
  fs.writeFileSync(file, data, { mode: PRIVATE_FILE_MODE, flag });
}

/** The same, asynchronously (large files, off the event loop's critical path). */
export async function writePrivateFileAsync(file: string, data: string | Uint8Array): Promise<void> {
  await fs.promises.writeFile(file, data, { mode: PRIVATE_FILE_MODE });
}

type SystemUser = { name: string; uid: number; gid: number };

/** A user of /etc/passwd by name, or undefined. */
export function findSystemUser(name: string): SystemUser | undefined {
  for (const line of fs.readFileSync("/etc/passwd", "utf8").split("\n")) {
    const [n, , uid, gid] = line.split(":");
    if (n === name && uid && gid) return { name, uid: Number(uid), gid: Number(gid) };
  }
  return undefined;
}

/**
 * DATA_DIR itself (or the folder holding an embedded cluster): created if missing and made 0700,
 * or 0710 with the postgres group when root runs the embedded cluster as `postgres`, which only
 * needs to pass through to its own folder. Keeps it out of the browser user's reach.
 */
export function protectDataDir(dir: string): void {
  // why the parents with the default mode: they are the operator's folders, and as root `postgres` must pass through them.
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  makePrivateDir(dir);
  const postgresGid = process.getuid?.() === 0 ? findSystemUser("postgres")?.gid : undefined;
  if (postgresGid === undefined) return fs.chmodSync(dir, PRIVATE_DIR_MODE);
  fs.chownSync(dir, 0, postgresGid);
  fs.chmodSync(dir, 0o710);
}
