/**
 * A small assembler of classic BPF, the language of seccomp filters (`struct sock_filter`: u16
 * code, u8 jt, u8 jf, u32 k, 8 bytes little-endian). why here and not libseccomp: it would need a
 * compiler or a native addon wherever Folio is installed; the few instructions a deny-list takes
 * are written here and the kernel checks the program when it is loaded.
 *
 * Jumps name labels. Classic BPF jumps forward only, by at most 255 instructions for a
 * conditional jump: `assemble` refuses a program that breaks either rule instead of writing one
 * that jumps elsewhere.
 */

/** Instruction classes and modes of <linux/bpf_common.h>. */
const BPF_LD = 0x00;
const BPF_JMP = 0x05;
const BPF_RET = 0x06;
const BPF_W = 0x00;
const BPF_ABS = 0x20;
const BPF_JA = 0x00;
const BPF_JEQ = 0x10;
const BPF_JGE = 0x30;
const BPF_JSET = 0x40;
const BPF_K = 0x00;

/** Where a conditional jump goes: a label, or the next instruction. */
type Target = string | undefined;

export type Step =
  | { op: "ld"; offset: number }
  | { op: "jeq" | "jge" | "jset"; k: number; jt: Target; jf: Target }
  | { op: "ja"; to: string }
  | { op: "ret"; k: number }
  | { op: "label"; name: string };

/** Loads the 32-bit word at `offset` of the input (for seccomp, `struct seccomp_data`). */
export const ld = (offset: number): Step => ({ op: "ld", offset });
/** Jumps to `jt` when the loaded word equals `k`, else to `jf` (the next instruction when left out). */
export const jeq = (k: number, jt?: string, jf?: string): Step => ({ op: "jeq", k, jt, jf });
/** As jeq, when the loaded word is at least `k` (unsigned). */
export const jge = (k: number, jt?: string, jf?: string): Step => ({ op: "jge", k, jt, jf });
/** As jeq, when the loaded word has any bit of `k`. */
export const jset = (k: number, jt?: string, jf?: string): Step => ({ op: "jset", k, jt, jf });
export const ja = (to: string): Step => ({ op: "ja", to });
/** Ends the program with `k` (for seccomp, the action). */
export const ret = (k: number): Step => ({ op: "ret", k });
export const label = (name: string): Step => ({ op: "label", name });

const JUMP_CODES = { jeq: BPF_JMP | BPF_JEQ | BPF_K, jge: BPF_JMP | BPF_JGE | BPF_K, jset: BPF_JMP | BPF_JSET | BPF_K };

/** The program's bytes, ready for `struct sock_fprog`. */
export function assemble(steps: Step[]): Buffer {
  const at = labelPositions(steps);
  const instructions = steps.filter((s) => s.op !== "label");
  const out = Buffer.alloc(instructions.length * 8);
  instructions.forEach((s, i) => {
    const offset = (target: Target) => (target === undefined ? 0 : forwardOffset(at, target, i, 255));
    switch (s.op) {
      case "ld":
        return write(out, i, BPF_LD | BPF_W | BPF_ABS, 0, 0, s.offset);
      case "jeq":
      case "jge":
      case "jset":
        return write(out, i, JUMP_CODES[s.op], offset(s.jt), offset(s.jf), s.k);
      case "ja":
        return write(out, i, BPF_JMP | BPF_JA, 0, 0, forwardOffset(at, s.to, i, 0xffffffff));
      case "ret":
        return write(out, i, BPF_RET | BPF_K, 0, 0, s.k);
    }
  });
  return out;
}

/** Each label's instruction index (labels take no room). */
function labelPositions(steps: Step[]): Map<string, number> {
  const at = new Map<string, number>();
  let index = 0;
  for (const s of steps) {
    if (s.op !== "label") index++;
    else if (at.has(s.name)) throw new Error(`BPF label ${s.name} is defined twice`);
    else at.set(s.name, index);
  }
  return at;
}

/** How many instructions a jump at `from` skips to reach `target`. */
function forwardOffset(at: Map<string, number>, target: string, from: number, max: number): number {
  const to = at.get(target);
  if (to === undefined) throw new Error(`BPF label ${target} is not defined`);
  const skip = to - from - 1;
  if (skip < 0) throw new Error(`BPF jump to ${target} goes backwards: classic BPF jumps forward only`);
  if (skip > max) throw new Error(`BPF jump to ${target} skips ${skip} instructions, more than the ${max} it may`);
  return skip;
}

function write(out: Buffer, index: number, code: number, jt: number, jf: number, k: number) {
  const at = index * 8;
  out.writeUInt16LE(code, at);
  out.writeUInt8(jt, at + 2);
  out.writeUInt8(jf, at + 3);
  out.writeUInt32LE(k >>> 0, at + 4);
}
