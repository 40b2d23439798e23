/**
 * CPU accounting for the benchmark: where the machine's CPU time goes during one phase, per group
 * of processes (a process and its descendants), read from /proc. Linux only.
 */
import fs from "node:fs";

export type Proc = { pid: number; ppid: number; comm: string; ms: number };
const TICK_MS = 10; // USER_HZ is 100 on Linux

/**
 * CPU milliseconds of all of a process's threads, to the nanosecond (schedstat), not the
 * 10 ms ticks of /proc/<pid>/stat, which misattribute short bursts on a busy machine.
 */
function threadsMs(pid: string): number {
  let ns = 0;
  for (const t of fs.readdirSync(`/proc/${pid}/task`)) ns += Number(fs.readFileSync(`/proc/${pid}/task/${t}/schedstat`, "utf8").split(" ")[0]);
  return ns / 1e6;
}

function snapshot(): Map<number, Proc> {
  const out = new Map<number, Proc>();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const f = stat.slice(close + 2).split(" ");
      out.set(Number(name), { pid: Number(name), ppid: Number(f[1]), comm, ms: threadsMs(name) });
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

function idleTicks(): number {
  const cpu = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  return cpu[3]! + cpu[4]!;
}

export type Groups = Record<string, (p: Proc, all: Map<number, Proc>) => boolean>;

/** A group predicate: the process `root` and everything below it. */
export function treeOf(root: number) {
  return (p: Proc, all: Map<number, Proc>) => {
    for (let q: Proc | undefined = p; q; q = all.get(q.ppid)) if (q.pid === root) return true;
    return false;
  };
}

/** Starts measuring; the returned function gives CPU milliseconds per group (and idle) since. */
export function measureCpu(groups: Groups): () => Record<string, number> {
  const before = snapshot();
  const idle0 = idleTicks();
  return () => {
    const after = snapshot();
    const out: Record<string, number> = {};
    for (const [name, belongs] of Object.entries(groups)) {
      let ms = 0;
      for (const p of after.values()) if (belongs(p, after)) ms += p.ms - (before.get(p.pid)?.ms ?? 0);
      out[name] = ms;
    }
    out.idle = (idleTicks() - idle0) * TICK_MS;
    return out;
  };
}
