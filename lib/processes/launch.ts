/**
 * How every process that runs callers' code or parses callers' bytes is started (docs/architecture.md,
 * "The process wing"): the template sandbox's hosts, the Node helpers of lib/offload, and, through
 * lib/render-engine, pdftoppm and the browser. They get what the browser gets, nothing of Folio's:
 * - an environment of the few variables named here (no DATABASE_URL, SECRET_KEY, storage or SMTP
 *   credentials);
 * - the unprivileged render user (RENDER_USER, formerly CHROMIUM_USER) whenever this process may
 *   switch users, with no capability, no supplementary group and no_new_privs (`setpriv`), so that
 *   it cannot read DATA_DIR or regain root through a setuid program;
 * - no network when this process may make a namespace (root): `unshare --net` leaves it a loopback
 *   that is down. Its IPC channel is a socket pair it inherits, which a namespace does not touch;
 * - a seccomp filter denying the system calls an escape would reach for (./seccomp.ts) wherever
 *   the kernel takes one, root or not.
 * Chromium's launcher (render-engine/run-chromium.sh) takes its user switch from here too
 * (`asUserPrefix`), without the namespace and the filter: it fetches callers' URLs, and its own
 * sandbox filters its renderers.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { config } from "../config";
import { log } from "../log";
import { findSystemUser } from "../private-files";
import type { Launch } from "./pool";
import { syscallFilter } from "./seccomp";

export type SystemUser = { name: string; uid: number; gid: number };

const SETPRIV = "/usr/bin/setpriv";
const UNSHARE = "/usr/bin/unshare";

/** CAP_CHOWN (0), CAP_SETGID (6) and CAP_SETUID (7): what starting a program as another user takes (its folder is chowned to it first). */
const SWITCH_CAPABILITIES = (1n << 0n) | (1n << 6n) | (1n << 7n);

/**
 * Whether this process may start programs as another user: root, or a user that holds CAP_SETUID,
 * CAP_SETGID and CAP_CHOWN. why the second: the container runs web and worker as the service user
 * `folio` with those three and CAP_KILL (scripts/container-entry.sh, docs/architecture.md "One container"),
 * not as root.
 */
export function canSwitchUser(): boolean {
  if (process.getuid?.() === 0) return true;
  try {
    const effective = /^CapEff:\s*([0-9a-f]+)$/m.exec(fs.readFileSync("/proc/self/status", "utf8"))?.[1];
    return effective !== undefined && (BigInt(`0x${effective}`) & SWITCH_CAPABILITIES) === SWITCH_CAPABILITIES;
  } catch {
    return false;
  }
}

/** The render user's name: RENDER_USER, or its older name CHROMIUM_USER. */
export function renderUserName(): string {
  const cfg = config();
  return cfg.RENDER_USER ?? cfg.CHROMIUM_USER;
}

/** The unprivileged user contained processes run as when this process may switch users (canSwitchUser); undefined otherwise. */
export function renderUser(): SystemUser | undefined {
  if (!canSwitchUser()) return undefined;
  const name = renderUserName();
  const user = findSystemUser(name);
  if (!user) {
    throw new Error(
      `The render user ${name} does not exist. Folio may switch users and will not run callers' code as itself: ` +
        `run scripts/ensure-system.sh (creates it) or set RENDER_USER to an unprivileged user.`,
    );
  }
  if (user.uid === 0) throw new Error(`RENDER_USER ${name} is root; it must be an unprivileged user`);
  // why: a browser under the worker's own user would pass for a separate one and read DATA_DIR.
  if (user.uid === process.getuid?.()) throw new Error(`RENDER_USER ${name} is the server's own user; it must be a user of its own`);
  return user;
}

/** `setpriv`'s arguments: the user when there is one, and never a capability or a setuid program's rights. */
export function setprivArgs(user: SystemUser | undefined): string[] {
  // why --inh-caps and no_new_privs also without a user switch: the process may never gain rights
  // through a setuid program, whoever runs it.
  return user ? [`--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", "--inh-caps=-all", "--no-new-privs"] : ["--no-new-privs"];
}

/** Whether processes started here get a network namespace of their own (no network at all). */
let isolating: boolean | undefined;
export function canIsolateNetwork(): boolean {
  // why tried once rather than assumed from root: root without CAP_SYS_ADMIN (Docker's defaults,
  // systemd's RestrictNamespaces=) may not make a namespace, and every contained start would fail.
  if (isolating === undefined) isolating = process.getuid?.() === 0 && fs.existsSync(UNSHARE) && spawnSync(UNSHARE, ["--net", "--", "/bin/true"], { stdio: "ignore", timeout: 5000 }).status === 0;
  return isolating;
}

/** The arguments that start a program as `user` with no capability and no_new_privs: they go before the program's own. */
export function asUserPrefix(user: SystemUser | undefined): string[] {
  return [SETPRIV, ...setprivArgs(user), "--"];
}

/**
 * The arguments that start a program under the seccomp filter where this system takes one, else
 * none, and the log says once what is missing. They go before `asUserPrefix`: setpriv's own calls
 * (setresuid, setgroups, capset, prctl) are not filtered.
 */
let warnedNoFilter = false;
export function syscallFilterPrefix(): string[] {
  const filter = syscallFilter();
  if (filter.on) return filter.prefix;
  if (!warnedNoFilter) {
    warnedNoFilter = true;
    log().warn(
      `The template sandbox, the font and PDF helpers and pdftoppm run WITHOUT a seccomp filter: ${filter.reason}. ` +
        `An escape from them may call ptrace, mount, unshare, bpf, keyctl and the other calls the filter denies. ` +
        `It needs Linux on x86_64 or arm64 with seccomp filters, and /usr/bin/perl. See docs/architecture.md, "The process wing".`,
    );
  }
  return [];
}

/**
 * The command line that starts `argv` contained: without network where this process may take it
 * away, under the seccomp filter where the kernel takes one, then as `user` (renderUser()) with no
 * capability and no_new_privs, with `env` as its whole environment. Each step execs the next, so
 * the process started is the program's own (its pid is the one the pool watches).
 */
export function containedLaunch(argv: string[], opts: { user: SystemUser | undefined; env: Record<string, string>; cwd?: string }): Launch {
  const net = canIsolateNetwork() ? [UNSHARE, "--net", "--"] : [];
  // why the filter after unshare: it denies unshare.
  const all = [...net, ...syscallFilterPrefix(), ...asUserPrefix(opts.user), ...argv];
  return { command: all[0]!, args: all.slice(1), env: opts.env, cwd: opts.cwd };
}

/** Every folder above `p` lets others through, and `p` itself lets others read it (and run it, with `run`). */
export function openToOthers(p: string, run = false): boolean {
  try {
    const need = run ? 0o005 : 0o004;
    if ((fs.statSync(p).mode & need) !== need) return false;
    for (let dir = path.dirname(p); ; dir = path.dirname(dir)) {
      if ((fs.statSync(dir).mode & 0o001) === 0) return false;
      if (dir === path.dirname(dir)) return true;
    }
  } catch {
    return false;
  }
}

