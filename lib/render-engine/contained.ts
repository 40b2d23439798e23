import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { config } from "../config";
import { asUserPrefix, renderUser, syscallFilterPrefix } from "../processes/launch";

/**
 * The one launcher for helper programs that parse callers' bytes (poppler's pdftoppm today, any
 * later one such as qpdf): they get what the browser gets (docs/architecture.md, Threat model),
 * nothing of the worker's.
 * - an environment of PATH, LANG, HOME and TMPDIR only (no DATABASE_URL, SECRET_KEY, storage or
 *   SMTP credentials);
 * - the unprivileged RENDER_USER when the worker runs as root, with no capability and
 *   no_new_privs (`setpriv`), so it cannot read DATA_DIR (protectDataDir) or regain root;
 * - the seccomp filter of the sandbox's hosts where the kernel takes one (lib/processes/seccomp.ts);
 * - CPU seconds, address space and file size limits (`prlimit`), and a wall-clock limit that
 *   kills its whole process group;
 * - a private, empty working folder (its HOME and TMPDIR) outside DATA_DIR, removed afterwards.
 * stdin, stdout and stderr stay pipes, so the bytes stream as with a plain spawn.
 */

export type ContainedLimits = {
  /** Wall-clock limit: past it the process group is killed with SIGKILL. */
  timeoutMs: number;
  /** RLIMIT_CPU, whole seconds. */
  cpuSeconds: number;
  /** RLIMIT_AS: the process's address space. */
  memoryBytes: number;
  /** RLIMIT_FSIZE: the largest file it may write (pipes are not files). */
  fileBytes: number;
};

export type Contained = {
  child: ChildProcessWithoutNullStreams;
  /** Settles when the process has ended (its folder removed): its exit code, or the signal that ended it. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; timedOut: boolean }>;
};

const PRLIMIT = "/usr/bin/prlimit";
const ENV = "/usr/bin/env";

/** The parent of the helpers' private folders; never under DATA_DIR (checked, as TMPDIR could point anywhere). */
function helperTmpRoot(): string {
  const root = fs.realpathSync(os.tmpdir());
  const data = path.resolve(config().DATA_DIR);
  if (root === data || root.startsWith(data + path.sep)) {
    throw new Error(`The temporary folder ${root} is inside DATA_DIR; helper programs must not run there. Point TMPDIR elsewhere.`);
  }
  return root;
}

/**
 * Takes the helper's folder, and whatever it left there, back from the browser user, so that a
 * worker that is not root may remove it: the container's service user holds CAP_CHOWN but not
 * CAP_DAC_OVERRIDE, so it could neither read the user's 0700 folders nor unlink in them, and the
 * sticky temporary folder keeps their names to their owner. Each folder changes owner before it is read.
 */
function reclaim(dir: string) {
  const uid = process.getuid!();
  const gid = process.getgid!();
  const walk = (p: string) => {
    fs.lchownSync(p, uid, gid);
    if (fs.lstatSync(p).isDirectory()) for (const entry of fs.readdirSync(p)) walk(path.join(p, entry));
  };
  try {
    walk(dir);
  } catch {
    // gone already, or not ours to take: fs.rm below fails as quietly
  }
}

/**
 * Starts `program` contained, with `args`. `signal` ends it (the whole group) early. The caller
 * reads child.stdout/stderr and writes child.stdin as with spawn.
 */
export function spawnContained(program: string, args: string[], limits: ContainedLimits, signal?: AbortSignal): Contained {
  const user = renderUser();
  const dir = fs.mkdtempSync(path.join(helperTmpRoot(), "folio-helper-"));
  if (user) fs.chownSync(dir, user.uid, user.gid); // mode 0700: its own, nobody else's
  // why the cast: Next.js types NODE_ENV as always present; the helper gets none.
  const env = { PATH: "/usr/bin:/bin", LANG: "C.UTF-8", HOME: dir, TMPDIR: dir } as unknown as NodeJS.ProcessEnv;
  const prlimit = [
    `--cpu=${Math.max(1, Math.ceil(limits.cpuSeconds))}`,
    `--as=${Math.floor(limits.memoryBytes)}`,
    `--fsize=${Math.floor(limits.fileBytes)}`,
    // why no core files: a crash must not write the process's memory (callers' bytes) to disk.
    "--core=0",
  ];
  // why env --chdir after the switch and not spawn's cwd: the folder is the browser user's, 0700, and
  // a worker without CAP_DAC_OVERRIDE (the container's service user) may not enter it; that user may.
  const child = spawn(PRLIMIT, [...prlimit, "--", ...syscallFilterPrefix(), ...asUserPrefix(user), ENV, `--chdir=${dir}`, program, ...args], {
    env,
    cwd: path.dirname(dir),
    stdio: ["pipe", "pipe", "pipe"],
    // why a group of its own: the wall-clock limit and an abort kill everything it started.
    detached: true,
  });
  let timedOut = false;
  const kill = () => {
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, limits.timeoutMs);
  const onAbort = () => kill();
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) kill();
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; timedOut: boolean }>((resolve) => {
    let finished = false;
    const finish = (code: number | null, sig: NodeJS.Signals | null) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (user && process.getuid?.() !== 0) reclaim(dir);
      fs.rm(dir, { recursive: true, force: true }, () => resolve({ code, signal: sig, timedOut }));
    };
    child.once("close", finish);
    child.once("error", () => finish(null, null));
  });
  return { child, done };
}
