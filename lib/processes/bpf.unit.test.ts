import { describe, expect, it } from "vitest";
import { assemble, ja, jeq, jge, jset, label, ld, ret } from "./bpf";

// The assembler of seccomp programs: bytes checked against struct sock_filter written by hand
// (the same four instructions the kernel took in a first trial), and the jumps it must refuse.

describe("assemble", () => {
  it("writes struct sock_filter: u16 code, u8 jt, u8 jf, u32 k, little-endian, labels taking no room", () => {
    const program = assemble([ld(0), jeq(272, "deny"), ret(0x7fff0000), label("deny"), ret(0x00050001)]);
    expect(program.toString("hex")).toBe(
      [
        "2000" + "00" + "00" + "00000000", // BPF_LD|BPF_W|BPF_ABS, k = 0 (seccomp_data.nr)
        "1500" + "01" + "00" + "10010000", // BPF_JMP|BPF_JEQ|BPF_K 272: true skips one
        "0600" + "00" + "00" + "0000ff7f", // BPF_RET SECCOMP_RET_ALLOW
        "0600" + "00" + "00" + "01000500", // BPF_RET SECCOMP_RET_ERRNO | EPERM
      ].join(""),
    );
  });

  it("encodes jge, jset and ja, and a false branch to a label", () => {
    const program = assemble([jge(0x40000000, "a"), jset(0x80000000, undefined, "b"), ja("b"), label("a"), ret(0), label("b"), ret(1)]);
    expect(program.toString("hex")).toBe(
      [
        "3500" + "02" + "00" + "00000040", // jge: to "a", two ahead
        "4500" + "00" + "02" + "00000080", // jset: false to "b"
        "0500" + "00" + "00" + "01000000", // ja: k counts the skipped instructions
        "0600" + "00" + "00" + "00000000",
        "0600" + "00" + "00" + "01000000",
      ].join(""),
    );
  });

  it("refuses a jump backwards, to a label not defined, or to one defined twice", () => {
    expect(() => assemble([label("top"), ld(0), jeq(1, "top"), ret(0)])).toThrow(/goes backwards/);
    expect(() => assemble([jeq(1, "nowhere"), ret(0)])).toThrow(/nowhere is not defined/);
    expect(() => assemble([label("x"), label("x"), ret(0)])).toThrow(/defined twice/);
  });

  it("refuses a conditional jump past 255 instructions, which its u8 cannot hold, and takes 255", () => {
    const filler = (n: number) => Array.from({ length: n }, () => ld(0));
    expect(() => assemble([jeq(1, "far"), ...filler(256), label("far"), ret(0)])).toThrow(/skips 256 instructions, more than the 255/);
    const program = assemble([jeq(1, "far"), ...filler(255), label("far"), ret(0)]);
    expect(program.readUInt8(2)).toBe(255);
    // An unconditional jump's offset is k, 32 bits.
    expect(assemble([ja("far"), ...filler(300), label("far"), ret(0)]).readUInt32LE(4)).toBe(300);
  });
});
