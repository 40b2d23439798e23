import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LaunchOptions } from "playwright-core";
import { config, ConfigError } from "../config";
import { protectDataDir as protectPrivateDataDir } from "../private-files";
import { asUserPrefix, canSwitchUser, type SystemUser } from "../processes/launch";

/**
 * How the worker's browser is contained (docs/architecture.md, "Threat model"): it runs callers'
 * scripts, so it gets nothing of the worker's. It starts through `run-chromium.sh` with an
 * environment holding no setting of Folio's, under the unprivileged RENDER_USER (CHROMIUM_USER, its
 * older name, still read) when the worker may switch users, and with Chromium's own sandbox on
 * whenever the kernel lets it start.
 */
export type Containment = {
  /** The browser's user name, or undefined when it runs as the worker's own (non-root) user. */
  user?: string;
  /** Whether Chromium's sandbox is on (renderers in their own namespaces under seccomp). */
  sandbox: boolean;
  /** Whether the browser (and pdftoppm) run as a user other than the worker's: only when the worker is root. */
  separateUser: boolean;
  /** RENDERER_REQUIRE_SANDBOX: without sandbox or separate user the worker does not start. */
  required: boolean;
};


/**
 * The browser's launcher script: beside this file when it runs from source; in a compiled worker
 * (dist/server, lib/processes/programs.ts) this file's name is the bundle's, and the script is found
 * under the working directory, the project root, as the sandbox's host and the helpers' entry are.
 */
function launcherPath(): string {
  const candidates = [path.join(__dirname, "run-chromium.sh"), path.join(process.cwd(), "lib", "render-engine", "run-chromium.sh")];
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error(`The browser's launcher was not found (looked at ${candidates.join(", ")})`);
  return found;
}


/**
 * Playwright's launch options for the contained browser. `env` is the launcher's whole environment
 * (Playwright passes nothing else of the worker's), and the launcher clears even that for Chromium.
 */
export function containedLaunch(user: SystemUser | undefined, sandbox: boolean): Pick<LaunchOptions, "executablePath" | "env" | "chromiumSandbox"> {
  const env: Record<string, string> = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", FOLIO_CHROMIUM: config().CHROMIUM_PATH };
  if (user) Object.assign(env, { FOLIO_CHROMIUM_UID: String(user.uid), FOLIO_CHROMIUM_GID: String(user.gid), FOLIO_CHROMIUM_LAUNCH: launchWords(user) });
  // why: a worker that is not root (the container's service user) may not remove the browser
  // user's files from its profile, so that user removes the profile itself when Chromium ends.
  if (user && process.getuid?.() !== 0) env.FOLIO_CHROMIUM_REMOVE_PROFILE = "1";
  return { executablePath: launcherPath(), env, chromiumSandbox: sandbox };
}

/**
 * The user switch of every contained process (lib/processes/launch.ts), as the words the launcher
 * splits: the containment line exists once, in TypeScript, and the shell script only runs it.
 */
function launchWords(user: SystemUser): string {
  const words = asUserPrefix(user);
  // why refused: the script splits on blanks, so a word holding one would become two arguments.
  const blank = words.find((w) => /\s/.test(w) || w === "");
  if (blank !== undefined) throw new Error(`The browser's user switch has an argument the launcher cannot pass: ${JSON.stringify(blank)}`);
  return words.join(" ");
}

/** Keeps DATA_DIR (secret key, files, the embedded cluster) out of the browser user's reach (lib/private-files.ts). */
export function protectDataDir(dir = config().DATA_DIR) {
  protectPrivateDataDir(dir);
}

/** What the log and the readiness details say when the sandbox could not start. */
export const SANDBOX_OFF_MESSAGE =
  "Chromium's sandbox could not start, so renders run WITHOUT it: callers' pages are contained only by the browser user. " +
  "The sandbox needs unprivileged user namespaces: on the host, `sysctl -w kernel.unprivileged_userns_clone=1` and " +
  "`sysctl -w user.max_user_namespaces=10000` (Debian, Ubuntu); in Docker, a seccomp profile that allows clone and unshare with CLONE_NEWUSER " +
  "(Docker's default profile does not, unless the container has CAP_SYS_ADMIN) and no AppArmor rule denying `userns`. See README, 'Renderer sandbox'.";

/** What the log and the readiness details say when the browser runs as the worker's own user. */
export const SAME_USER_MESSAGE =
  "The worker does not run as root, so the browser and pdftoppm run as the worker's own user: a renderer exploit could read DATA_DIR " +
  "(the secret key) and the worker's files. Run the worker as root (or with CAP_SETUID, CAP_SETGID and CAP_CHOWN) so that they run as RENDER_USER. See README, 'Renderer sandbox'.";

/** What the log, the readiness details and the platform page say when the worker stayed dumpable. */
export const DUMPABLE_MESSAGE =
  "The worker could not make itself non-dumpable (an execute-only copy of node could not run from the temporary folder, mounted noexec?): " +
  "a process of its own user can read its environment (database URL, secret key) through /proc. See docs/architecture.md, Threat model.";

/** The warnings of a containment short of the full one, for the log, the readiness details and the platform page. */
export function containmentWarnings(c: Pick<Containment, "sandbox" | "separateUser">): string[] {
  return [...(c.sandbox ? [] : [SANDBOX_OFF_MESSAGE]), ...(c.separateUser ? [] : [SAME_USER_MESSAGE])];
}

/** The worker will not start (RENDERER_REQUIRE_SANDBOX) with its browser contained less than required. */
export class SandboxRequiredError extends ConfigError {}

/**
 * Under RENDERER_REQUIRE_SANDBOX, refuses a browser without a user of its own, before anything is
 * launched. why before: without it, the sandbox alone would still leave the worker's files to a
 * sandbox escape.
 */
export function requireSeparateUser(user: SystemUser | undefined) {
  if (user || !config().RENDERER_REQUIRE_SANDBOX) return;
  throw new SandboxRequiredError(
    `RENDERER_REQUIRE_SANDBOX is on and the worker does not run as root, so its browser would run as the worker's own user ` +
      `(${os.userInfo().username}) and could read DATA_DIR. Run the worker as root (it runs the browser as RENDER_USER), ` +
      `or set RENDERER_REQUIRE_SANDBOX=false to render anyway. See README, 'Renderer sandbox'.`,
  );
}

export function sandboxRequiredError(err: unknown) {
  return new SandboxRequiredError(
    `RENDERER_REQUIRE_SANDBOX is on and Chromium's sandbox could not start, so the worker does not start. ` +
      `${SANDBOX_OFF_MESSAGE.slice(SANDBOX_OFF_MESSAGE.indexOf("The sandbox needs"))} Or set RENDERER_REQUIRE_SANDBOX=false to render without it. ` +
      `Chromium said: ${String(err instanceof Error ? err.message : err).split("\n").find((l) => /No usable sandbox/.test(l))?.trim() ?? "No usable sandbox"}`,
    { cause: err },
  );
}

/** One line for the start-up log: where the browser runs and whether the sandbox is on. */
export function describeContainment(c: Containment): string {
  return `${c.sandbox ? "sandbox on" : "sandbox OFF"}, ${c.user ? `as user ${c.user}` : `as the worker's own user ${os.userInfo().username}`}`;
}

/** Where a worker that is not root re-executes itself from (becomeNonDumpable); the re-executed worker removes it. */
const REEXEC_VARIABLE = "FOLIO_NONDUMPABLE_NODE";

/**
 * Makes the worker process non-dumpable, so that no process without CAP_SYS_PTRACE reads its
 * memory or /proc/<pid>/environ (the database URL, secret key, storage and SMTP credentials), not
 * even one of its own user, such as the browser of a worker that is not root. Returns whether it
 * is. Node has no prctl; without a native addon (which would need a compiler wherever Folio is
 * installed), two documented kernel rules serve (docs/architecture.md, Threat model):
 * - a process whose effective group changes gets fs.suid_dumpable (0 or 2: not dumpable) until its
 *   next exec: a root worker (or one holding CAP_SETGID, as in the container) changes its effective
 *   group and back;
 * - a process that execs a program it may not read is not dumpable: a worker that is not root
 *   re-executes itself (process.execve, same pid) from an execute-only copy of node in a private
 *   folder, which the new image deletes at once.
 * why at the very start: nothing else has run yet that an exec would lose.
 */
export function becomeNonDumpable(): boolean {
  // why canSwitchUser and not only root: the container's service user holds CAP_SETGID, which is
  // all the group change takes (and its copy of node could not be made: fchmod is refused there).
  if (canSwitchUser()) {
    const own = process.getegid!();
    process.setegid!(own === 65534 ? 65533 : 65534);
    process.setegid!(own);
    return true;
  }
  const reexec = process.env[REEXEC_VARIABLE];
  if (reexec) {
    delete process.env[REEXEC_VARIABLE];
    const [copy, original] = JSON.parse(reexec) as [string, string];
    fs.rmSync(path.dirname(copy), { recursive: true, force: true });
    // why: the helpers (lib/offload) are forked from process.execPath, the copy no longer there.
    process.execPath = original;
    // Not dumpable: /proc/self is root's, however the process runs.
    return fs.statSync("/proc/self/environ").uid === 0;
  }
  if (!process.execve) return false;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-worker-node-"));
  const node = path.join(dir, "node");
  try {
    fs.copyFileSync(process.execPath, node);
    fs.chmodSync(node, 0o111);
    return process.execve(node, [node, ...process.execArgv, ...process.argv.slice(1)], { ...process.env, [REEXEC_VARIABLE]: JSON.stringify([node, process.execPath]) });
  } catch {
    // A temporary folder mounted noexec, say: the worker goes on dumpable, and says so at start.
    fs.rmSync(dir, { recursive: true, force: true });
    return false;
  }
}
