/**
 * The seccomp filter (seccomp.ts): its program run through a classic-BPF interpreter written here
 * for every architecture it knows, its numbers against the kernel's headers where they are
 * installed, and, where this machine takes the filter, real processes: a program started by
 * containedLaunch, the template sandbox's hosts and a font/PDF helper.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HelperPool } from "../offload/pool";
import { runSandbox, sandboxPids, stopSandbox } from "../sandbox";
import { containedLaunch, renderUser } from "./launch";
import { ARCHES, DENIED, filterPrefix, filterProgram, syscallFilter } from "./seccomp";

const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const ENOSYS = 0x00050026;
const KILL_PROCESS = 0x80000000;
const AUDIT_ARCH_I386 = 0x40000003;
const CLONE_NEWUSER = 0x10000000;
const CLONE_NEWNET = 0x40000000;
const SIGCHLD = 17;
/** What glibc's fork and pthread_create pass to clone. */
const FORK_FLAGS = 0x01200000 | SIGCHLD;
const THREAD_FLAGS = 0x003d0f00;

/** Runs a classic-BPF seccomp program on one system call, as the kernel would: its action. */
function decide(program: Buffer, call: { arch: number; nr: number; args?: number[] }): number {
  const data = Buffer.alloc(64);
  data.writeInt32LE(call.nr, 0);
  data.writeUInt32LE(call.arch, 4);
  (call.args ?? []).forEach((a, i) => data.writeBigUInt64LE(BigInt(a), 16 + 8 * i));
  let acc = 0;
  for (let pc = 0; ; ) {
    const [code, jt, jf, k] = [program.readUInt16LE(pc * 8), program.readUInt8(pc * 8 + 2), program.readUInt8(pc * 8 + 3), program.readUInt32LE(pc * 8 + 4)];
    const jump = (taken: boolean) => (pc += 1 + (taken ? jt : jf));
    switch (code) {
      case 0x20: acc = data.readUInt32LE(k); pc++; break;
      case 0x15: jump(acc === k); break;
      case 0x35: jump(acc >= k); break;
      case 0x45: jump((acc & k) !== 0); break;
      case 0x05: pc += 1 + k; break;
      case 0x06: return k;
      default: throw new Error(`instruction ${code.toString(16)} at ${pc} is not one the filter uses`);
    }
  }
}

/** Calls setpriv makes after the filter is on (user, groups, capabilities, no_new_privs), and everyday ones. */
const NEEDED = {
  x64: { read: 0, mmap: 9, setresuid: 117, setresgid: 119, setgroups: 116, capset: 126, prctl: 157, execve: 59, seccomp: 317 },
  arm64: { read: 63, mmap: 222, setresuid: 147, setresgid: 149, setgroups: 159, capset: 91, prctl: 167, execve: 221, seccomp: 277 },
};

describe.each(Object.entries(ARCHES))("the filter's program on %s", (arch, a) => {
  const program = filterProgram(arch)!;
  const call = (nr: number, ...args: number[]) => decide(program, { arch: a.audit, nr, args });

  it("answers EPERM to every call of the deny-list this architecture has", () => {
    const denied = DENIED.filter((name) => a.numbers[name] !== undefined);
    expect(denied.length).toBeGreaterThan(45);
    for (const name of denied) expect(call(a.numbers[name]!), name).toBe(EPERM);
  });

  it("allows what setpriv, node and V8 need", () => {
    for (const [name, nr] of Object.entries(NEEDED[arch as keyof typeof NEEDED])) expect(call(nr), name).toBe(ALLOW);
  });

  it("allows clone for a process or a thread, not with a namespace flag; answers clone3 ENOSYS so that glibc falls back to clone", () => {
    expect(call(a.numbers.clone!, FORK_FLAGS)).toBe(ALLOW);
    expect(call(a.numbers.clone!, THREAD_FLAGS)).toBe(ALLOW);
    expect(call(a.numbers.clone!, FORK_FLAGS | CLONE_NEWUSER)).toBe(EPERM);
    expect(call(a.numbers.clone!, SIGCHLD | CLONE_NEWNET)).toBe(EPERM);
    expect(call(a.numbers.clone3!)).toBe(ENOSYS);
  });

  it("allows personality's query and PER_LINUX only (not ADDR_NO_RANDOMIZE, which turns off ASLR)", () => {
    expect(call(a.numbers.personality!, 0xffffffff)).toBe(ALLOW);
    expect(call(a.numbers.personality!, 0)).toBe(ALLOW);
    expect(call(a.numbers.personality!, 0x0040000)).toBe(EPERM);
  });

  it("kills a call of another architecture's ABI", () => {
    expect(decide(program, { arch: AUDIT_ARCH_I386, nr: 1 })).toBe(KILL_PROCESS);
    const other = Object.values(ARCHES).find((o) => o !== a)!;
    expect(decide(program, { arch: other.audit, nr: 0 })).toBe(KILL_PROCESS);
  });

  it.runIf(a.x32)("kills a call of the x32 ABI, the same calls behind another number, and lets -1 through (no call at all)", () => {
    expect(call(0x40000000 + a.numbers.unshare!)).toBe(KILL_PROCESS);
    expect(call(0x40000000)).toBe(KILL_PROCESS);
    expect(call(-1)).toBe(ALLOW);
  });
});

describe("the filter's system call numbers", () => {
  /** Each `#define __NR_name number` of a header. */
  const numbersIn = (file: string) => new Map([...fs.readFileSync(file, "utf8").matchAll(/^#define __NR(?:3264)?_(\w+)\s+(\d+)/gm)].map((m) => [m[1]!, Number(m[2])]));
  const headers = { x64: "/usr/include/x86_64-linux-gnu/asm/unistd_64.h", arm64: "/usr/include/asm-generic/unistd.h" };

  for (const [arch, file] of Object.entries(headers)) {
    it.runIf(fs.existsSync(file))(`are ${arch}'s, as its kernel headers give them (${file})`, () => {
      const want = numbersIn(file);
      for (const [name, nr] of Object.entries(ARCHES[arch]!.numbers)) expect(nr, name).toBe(want.get(name));
      // A denied call the table leaves out must be one the architecture lacks.
      for (const name of DENIED) if (ARCHES[arch]!.numbers[name] === undefined) expect(want.has(name), name).toBe(false);
    });
  }

  it("are not guessed for an architecture the filter does not know: no filter there", () => {
    expect(filterPrefix("riscv64")).toBeUndefined();
  });
});

const filterOn = syscallFilter().on;
const asRoot = process.getuid?.() === 0;
const numbers = ARCHES[process.arch]?.numbers ?? {};

/** The fields of /proc/<pid>/status that say what holds a process. */
function containment(pid: number | "self", status = fs.readFileSync(`/proc/${pid}/status`, "utf8")) {
  const field = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "m").exec(status)?.[1];
  return { seccomp: field("Seccomp"), filters: Number(field("Seccomp_filters")), noNewPrivs: field("NoNewPrivs"), capEff: field("CapEff"), uid: field("Uid")?.split(/\s+/)[0] };
}

/** Ours on top of any this test's own process runs under (a container runtime's). */
const FILTERS = containment("self").filters + 1;

/** Runs `argv` through containedLaunch, as the sandbox's hosts and the helpers start. */
function runContained(argv: string[]) {
  const launch = containedLaunch(argv, { user: renderUser(), env: { PATH: "/usr/bin:/bin", LANG: "C.UTF-8" } });
  return spawnSync(launch.command, launch.args, { env: launch.env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 20_000 });
}

describe.runIf(filterOn)("a process started by containedLaunch", () => {
  it("runs under one filter, as the render user with no capability and no_new_privs: setpriv switched after the filter was on", () => {
    const r = runContained(["/bin/cat", "/proc/self/status"]);
    expect(r.status, r.stderr).toBe(0);
    const c = containment("self", r.stdout);
    expect(c).toMatchObject({ seccomp: "2", filters: FILTERS, noNewPrivs: "1", capEff: "0000000000000000" });
    if (asRoot) expect(c.uid).toBe(String(renderUser()!.uid));
  });

  it("is refused unshare and personality without ASLR (EPERM), and so are the programs it starts", () => {
    const r = runContained(["/bin/sh", "-c", "/usr/bin/unshare --user /bin/true; echo status=$?; /usr/bin/setarch --addr-no-randomize /bin/true; echo status=$?"]);
    expect(r.stdout.trim().split("\n")).toEqual(["status=1", "status=1"]);
    expect(r.stderr).toContain("unshare: unshare failed: Operation not permitted");
    expect(r.stderr).toContain("setarch: failed to set personality");
  });

  it("is refused clone with CLONE_NEWUSER (EPERM) and clone3 (ENOSYS), and forks and runs threads", () => {
    const perl = [
      `my $r = syscall(${numbers.clone}, ${CLONE_NEWUSER | SIGCHLD}, 0, 0, 0, 0); if ($r == 0) { POSIX::_exit(0) } print "clone-newuser=", ($r < 0 ? 0 + $! : "made"), "\\n";`,
      `$r = syscall(${numbers.clone3}, 0, 0); print "clone3=", 0 + $!, "\\n";`,
      `my $p = fork(); if ($p == 0) { POSIX::_exit(7) } waitpid($p, 0); print "fork=", $? >> 8, "\\n";`,
    ].join(" ");
    const r = runContained(["/usr/bin/perl", "-MPOSIX", "-e", perl]);
    expect(r.stdout.trim().split("\n"), r.stderr).toEqual(["clone-newuser=1", "clone3=38", "fork=7"]);
    const node = runContained([process.execPath, "-e", "const { Worker } = require('node:worker_threads'); new Worker('process.exit(0)', { eval: true }).on('exit', () => console.log(require('node:child_process').execFileSync('/bin/echo', ['threads and processes']).toString().trim()))"]);
    expect(node.stdout.trim(), node.stderr).toBe("threads and processes");
  });

  it.runIf(process.arch === "x64")("is killed (SIGSYS) at a call of the x32 ABI, a door around the filter's numbers", () => {
    const r = runContained(["/usr/bin/perl", "-e", `syscall(${0x40000000 + numbers.unshare!}, ${CLONE_NEWUSER}); print "survived\\n";`]);
    expect(r.signal).toBe("SIGSYS");
    expect(r.stdout).toBe("");
  });
});

describe.runIf(filterOn)("the processes that run callers' code and parse callers' bytes", () => {
  const pool = new HelperPool({ name: "seccomp test", warmHelpers: 1, maxHelpers: 1, memoryMb: 128, timeoutMs: 30_000, testJobs: path.resolve("lib/processes/seccomp-test-jobs.ts") });
  afterAll(async () => {
    await pool.close();
    await stopSandbox();
  });

  it("the template sandbox's hosts run under the filter, and templates still render", { timeout: 60_000 }, async () => {
    const r = await runSandbox({ steps: [{ name: "template", source: "<p>{{name}}</p>" }], data: { name: "Ada" } });
    expect(r.outputs.template).toBe("<p>Ada</p>");
    expect(sandboxPids().length).toBeGreaterThan(0);
    for (const pid of sandboxPids()) expect(containment(pid), `sandbox host ${pid}`).toMatchObject({ seccomp: "2", filters: FILTERS, noNewPrivs: "1", capEff: "0000000000000000" });
  });

  it("the font and PDF helpers run under the filter, and what they start is refused unshare", { timeout: 60_000 }, async () => {
    await pool.warm();
    for (const pid of pool.pids) expect(containment(pid), `helper ${pid}`).toMatchObject({ seccomp: "2", filters: FILTERS, noNewPrivs: "1", capEff: "0000000000000000" });
    const r = await pool.run<{ status: number; stderr: string }>("unshareUserNamespace", []);
    expect(r).toEqual({ status: 1, stderr: expect.stringContaining("Operation not permitted") });
  });
});
