import os from "node:os";
import path from "node:path";
import type { LaunchOptions } from "playwright-core";
import { config } from "../config";
import { findSystemUser, protectDataDir as protectPrivateDataDir } from "../files/private";

/**
 * How the worker's browser is contained (docs/architecture.md, "Threat model"): it runs callers'
 * scripts, so it gets nothing of the worker's. It starts through `run-chromium.sh` with an
 * environment holding no setting of Folio's, under the unprivileged CHROMIUM_USER when the worker
 * runs as root, and with Chromium's own sandbox on whenever the kernel lets it start.
 */
export type Containment = {
  /** The browser's user name, or undefined when it runs as the worker's own (non-root) user. */
  user?: string;
  /** Whether Chromium's sandbox is on (renderers in their own namespaces under seccomp). */
  sandbox: boolean;
};

type SystemUser = { name: string; uid: number; gid: number };

const LAUNCHER = path.join(__dirname, "run-chromium.sh");

/** The unprivileged user the browser runs as when the worker is root; undefined otherwise. */
export function browserUser(): SystemUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const name = config().CHROMIUM_USER;
  const user = findSystemUser(name);
  if (!user) {
    throw new Error(
      `The browser user ${name} does not exist. The worker runs as root and will not run Chromium as root: ` +
        `run scripts/ensure-system.sh (creates it) or set CHROMIUM_USER to an unprivileged user.`,
    );
  }
  if (user.uid === 0) throw new Error(`CHROMIUM_USER ${name} is root; it must be an unprivileged user`);
  return user;
}

/**
 * Playwright's launch options for the contained browser. `env` is the launcher's whole environment
 * (Playwright passes nothing else of the worker's), and the launcher clears even that for Chromium.
 */
export function containedLaunch(user: SystemUser | undefined, sandbox: boolean): Pick<LaunchOptions, "executablePath" | "env" | "chromiumSandbox"> {
  const env: Record<string, string> = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", FOLIO_CHROMIUM: config().CHROMIUM_PATH };
  if (user) Object.assign(env, { FOLIO_CHROMIUM_UID: String(user.uid), FOLIO_CHROMIUM_GID: String(user.gid) });
  return { executablePath: LAUNCHER, env, chromiumSandbox: sandbox };
}

/** Keeps DATA_DIR (secret key, files, the embedded cluster) out of the browser user's reach (lib/files/private.ts). */
export function protectDataDir(dir = config().DATA_DIR) {
  protectPrivateDataDir(dir);
}

/** What the log and the readiness details say when the sandbox could not start. */
export const SANDBOX_OFF_MESSAGE =
  "Chromium's sandbox could not start, so renders run WITHOUT it: callers' pages are contained only by the browser user. " +
  "The sandbox needs unprivileged user namespaces: on the host, `sysctl -w kernel.unprivileged_userns_clone=1` and " +
  "`sysctl -w user.max_user_namespaces=10000` (Debian, Ubuntu); in Docker, a seccomp profile that allows clone with CLONE_NEWUSER " +
  "(the default profile of Docker 20.10+ does) and no AppArmor rule denying `userns`. See README, 'Renderer sandbox'.";

/** One line for the start-up log: where the browser runs and whether the sandbox is on. */
export function describeContainment(c: Containment): string {
  return `${c.sandbox ? "sandbox on" : "sandbox OFF"}, ${c.user ? `as user ${c.user}` : `as the worker's own user ${os.userInfo().username}`}`;
}
