/**
 * The seccomp filter of the sandbox's hosts, the Node helpers and pdftoppm (docs/architecture.md,
 * "The process wing"): a deny-list of system calls that such a process never makes and that an
 * escape from it would reach for first — debugging other processes, namespaces and mounts, the
 * kernel's keyrings, BPF, perf, userfaultfd, io_uring, modules, the clock. Everything else is
 * allowed: the hosts run V8 and isolated-vm, whose needs (threads, mmap, signals, futexes) an
 * allow-list would have to follow release by release. Chromium is not filtered here; its own
 * sandbox filters its renderers far more tightly.
 *
 * How it is loaded without a compiler or a native addon: Debian's perl (perl-base, in every Debian
 * system) makes the two prctl calls through its `syscall` and then execs the next program, in the
 * same process. why not bubblewrap's `--seccomp FD`: bwrap forks and stays as the parent, so the
 * pool would watch (and bound the memory of) bwrap rather than the process doing the job, and the
 * pool's spawn has no spare descriptor to hand the program over; and bwrap makes a mount
 * namespace, which needs root, where a filter needs only no_new_privs.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { assemble, jeq, jge, jset, label, ld, ret, type Step } from "./bpf";

/** The actions of <linux/seccomp.h>. */
const SECCOMP_RET_KILL_PROCESS = 0x80000000;
const SECCOMP_RET_ERRNO = 0x00050000;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const EPERM = 1;
const ENOSYS = 38;

/** `struct seccomp_data`: nr, arch, instruction pointer, then six 64-bit arguments (their low half first: both architectures are little-endian). */
const NR = 0;
const ARCH = 4;
const ARG0_LOW = 16;

/** x86_64's x32 ABI: the same numbers with this bit, a second door to the same calls. */
const X32_SYSCALL_BIT = 0x40000000;

/** CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET: a clone that makes a namespace. */
const CLONE_NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000;
/** personality(2)'s query and PER_LINUX: what glibc and a program asking may use; the rest turns off ASLR and the like. */
const PERSONALITY_QUERY = 0xffffffff;
const PER_LINUX = 0;

/**
 * The calls answered EPERM. Each one: what an escape would do with it.
 * - other processes' memory: ptrace, process_vm_readv/writev, process_madvise, pidfd_getfd, kcmp;
 * - a way out of the namespace and user: mount and the new mount calls, pivot_root, chroot,
 *   unshare, setns (and clone with a namespace flag, below);
 * - the kernel's largest attack surfaces for an unprivileged process: keyctl, add_key,
 *   request_key, bpf, perf_event_open, userfaultfd, io_uring;
 * - the machine itself: modules, kexec, swap, reboot, acct, quotas, the clock, syslog, vhangup,
 *   open_by_handle_at (the call of the "shocker" container escape), I/O ports, fanotify.
 */
export const DENIED = [
  "ptrace", "process_vm_readv", "process_vm_writev", "process_madvise", "pidfd_getfd", "kcmp",
  "mount", "umount2", "pivot_root", "chroot", "unshare", "setns",
  "mount_setattr", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "open_tree",
  "keyctl", "add_key", "request_key", "bpf", "perf_event_open", "userfaultfd",
  "io_uring_setup", "io_uring_enter", "io_uring_register",
  "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
  "swapon", "swapoff", "reboot", "acct", "quotactl", "quotactl_fd",
  "open_by_handle_at", "name_to_handle_at", "fanotify_init", "lookup_dcookie",
  "syslog", "settimeofday", "clock_settime", "adjtimex", "clock_adjtime", "vhangup",
  "iopl", "ioperm", "modify_ldt", "uselib", "ustat", "sysfs", "_sysctl", "nfsservctl",
] as const;

type Syscall = (typeof DENIED)[number] | "clone" | "clone3" | "personality" | "prctl";

type Arch = { audit: number; x32: boolean; numbers: Partial<Record<Syscall, number>> };

/** The architectures Folio is built for, by Node's name; numbers from each one's <asm/unistd.h> (a call the architecture lacks is left out). */
export const ARCHES: Record<string, Arch> = {
  x64: {
    audit: 0xc000003e, // AUDIT_ARCH_X86_64
    x32: true,
    numbers: {
      ptrace: 101, process_vm_readv: 310, process_vm_writev: 311, process_madvise: 440, pidfd_getfd: 438, kcmp: 312,
      mount: 165, umount2: 166, pivot_root: 155, chroot: 161, unshare: 272, setns: 308,
      mount_setattr: 442, move_mount: 429, fsopen: 430, fsconfig: 431, fsmount: 432, fspick: 433, open_tree: 428,
      keyctl: 250, add_key: 248, request_key: 249, bpf: 321, perf_event_open: 298, userfaultfd: 323,
      io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427,
      kexec_load: 246, kexec_file_load: 320, init_module: 175, finit_module: 313, delete_module: 176,
      swapon: 167, swapoff: 168, reboot: 169, acct: 163, quotactl: 179, quotactl_fd: 443,
      open_by_handle_at: 304, name_to_handle_at: 303, fanotify_init: 300, lookup_dcookie: 212,
      syslog: 103, settimeofday: 164, clock_settime: 227, adjtimex: 159, clock_adjtime: 305, vhangup: 153,
      iopl: 172, ioperm: 173, modify_ldt: 154, uselib: 134, ustat: 136, sysfs: 139, _sysctl: 156, nfsservctl: 180,
      clone: 56, clone3: 435, personality: 135, prctl: 157,
    },
  },
  arm64: {
    audit: 0xc00000b7, // AUDIT_ARCH_AARCH64
    x32: false,
    numbers: {
      ptrace: 117, process_vm_readv: 270, process_vm_writev: 271, process_madvise: 440, pidfd_getfd: 438, kcmp: 272,
      mount: 40, umount2: 39, pivot_root: 41, chroot: 51, unshare: 97, setns: 268,
      mount_setattr: 442, move_mount: 429, fsopen: 430, fsconfig: 431, fsmount: 432, fspick: 433, open_tree: 428,
      keyctl: 219, add_key: 217, request_key: 218, bpf: 280, perf_event_open: 241, userfaultfd: 282,
      io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427,
      kexec_load: 104, kexec_file_load: 294, init_module: 105, finit_module: 273, delete_module: 106,
      swapon: 224, swapoff: 225, reboot: 142, acct: 89, quotactl: 60, quotactl_fd: 443,
      open_by_handle_at: 265, name_to_handle_at: 264, fanotify_init: 262, lookup_dcookie: 18,
      syslog: 116, settimeofday: 170, clock_settime: 112, adjtimex: 171, clock_adjtime: 266, vhangup: 58,
      nfsservctl: 42,
      clone: 220, clone3: 435, personality: 92, prctl: 167,
    },
  },
};

/**
 * The filter's program for `arch` (Node's name), or undefined for an architecture it does not
 * know. A call of another architecture's ABI (i386's int 0x80 on x86_64, x32, arm32 on arm64)
 * kills the process: the filter's numbers would not mean the same calls there.
 */
export function filterProgram(arch: string = process.arch): Buffer | undefined {
  const a = ARCHES[arch];
  if (!a) return undefined;
  const n = (name: Syscall) => a.numbers[name];
  const steps: Step[] = [
    ld(ARCH),
    jeq(a.audit, undefined, "kill"),
    ld(NR),
    ...(a.x32 ? [jge(X32_SYSCALL_BIT, "high")] : []),
    jeq(n("clone")!, "clone"),
    // why ENOSYS: clone3's flags sit in memory a filter cannot read; glibc then falls back to clone, whose flags it can.
    jeq(n("clone3")!, "enosys"),
    jeq(n("personality")!, "personality"),
    ...DENIED.flatMap((name) => (n(name) === undefined ? [] : [jeq(n(name)!, "eperm")])),
    ret(SECCOMP_RET_ALLOW),
    ...(a.x32
      ? [
          label("high"),
          // why -1 passes: it is no call (the kernel answers ENOSYS), and a tracer or a program probing may use it.
          jeq(0xffffffff, "allow", "kill"),
        ]
      : []),
    label("clone"),
    ld(ARG0_LOW),
    jset(CLONE_NAMESPACES, "eperm", "allow"),
    label("personality"),
    ld(ARG0_LOW),
    jeq(PERSONALITY_QUERY, "allow"),
    jeq(PER_LINUX, "allow", "eperm"),
    label("allow"),
    ret(SECCOMP_RET_ALLOW),
    label("eperm"),
    ret(SECCOMP_RET_ERRNO | EPERM),
    label("enosys"),
    ret(SECCOMP_RET_ERRNO | ENOSYS),
    label("kill"),
    ret(SECCOMP_RET_KILL_PROCESS),
  ];
  return assemble(steps);
}

const PERL = "/usr/bin/perl";

/**
 * The loader, as perl source: sets no_new_privs (a filter needs it, or CAP_SYS_ADMIN, which the
 * container's service user lacks), loads the program given in hex as its first argument, then
 * execs the rest of its arguments. `pack "S x6 p"` is `struct sock_fprog` on a 64-bit system: the
 * count of instructions, padding, a pointer to them. A refusal ends it before anything is run.
 */
function loaderSource(prctl: number): string {
  return [
    "my $f = pack('H*', shift @ARGV);",
    `syscall(${prctl}, 38, 1, 0, 0, 0) == 0 or die "seccomp: no_new_privs refused: $!\\n";`,
    `syscall(${prctl}, 22, 2, pack('S x6 p', length($f) / 8, $f)) == 0 or die "seccomp: the filter was refused: $!\\n";`,
    `exec { $ARGV[0] } @ARGV or die "seccomp: cannot run $ARGV[0]: $!\\n";`,
  ].join(" ");
}

/** The arguments that run a program under the filter: they go before its own. Undefined where the filter cannot be made here. */
export function filterPrefix(arch: string = process.arch): string[] | undefined {
  const program = filterProgram(arch);
  const prctl = ARCHES[arch]?.numbers.prctl;
  if (!program || prctl === undefined) return undefined;
  // why `--`: the hex and the program's own arguments are perl's @ARGV, never its switches.
  return [PERL, "-e", loaderSource(prctl), "--", program.toString("hex")];
}

export type FilterState = { on: true; prefix: string[] } | { on: false; reason: string };

/**
 * Whether processes started here can run under the filter, tried once with the filter itself.
 * why tried rather than assumed: a kernel without CONFIG_SECCOMP_FILTER, a container runtime's own
 * filter refusing prctl, or a system without perl would fail every contained start.
 */
let state: FilterState | undefined;
export function syscallFilter(): FilterState {
  state ??= probe();
  return state;
}

function probe(): FilterState {
  const prefix = filterPrefix();
  if (!prefix) return { on: false, reason: `the filter knows the system calls of x86_64 and arm64, not of ${process.arch}` };
  if (!fs.existsSync(PERL)) return { on: false, reason: `${PERL} is missing (Debian's perl-base package)` };
  // why the cast: Next.js types NODE_ENV as always present; the probe gets none.
  const env = { PATH: "/usr/bin:/bin" } as unknown as NodeJS.ProcessEnv;
  const r = spawnSync(prefix[0]!, [...prefix.slice(1), "/bin/cat", "/proc/self/status"], { encoding: "utf8", timeout: 5000, env });
  if (r.status === 0 && /^Seccomp:\s*2$/m.test(r.stdout)) return { on: true, prefix };
  const said = (r.stderr || r.error?.message || `exit status ${r.status}`).trim().split("\n")[0];
  return { on: false, reason: `this kernel or container refused it (${said})` };
}
