import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "./config";
import { seal, unseal } from "./crypto";

let saved: string | undefined;
beforeAll(() => {
  saved = process.env.SECRET_KEY;
  process.env.SECRET_KEY = Buffer.alloc(32, 7).toString("base64");
  resetConfigForTests();
});
afterAll(() => {
  if (saved === undefined) delete process.env.SECRET_KEY;
  else process.env.SECRET_KEY = saved;
  resetConfigForTests();
});

describe("seal and unseal", () => {
  const plain = Buffer.from('["renders/ws_1/rnd_1-1.pdf","application/pdf","rnd_1.pdf",1700000000000]');

  it("opens what it sealed, and seals the same text differently every time", () => {
    const a = seal("test", plain);
    const b = seal("test", plain);
    expect(a).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(unseal("test", a)).toEqual(plain);
    expect(unseal("test", b)).toEqual(plain);
  });

  it("opens nothing sealed for another purpose", () => {
    expect(unseal("other", seal("test", plain))).toBeUndefined();
  });

  it("opens nothing altered: any bit of IV, text or tag, a cut, an extra byte", () => {
    const bytes = Buffer.from(seal("test", plain), "base64url");
    for (let i = 0; i < bytes.length; i++) {
      const changed = Buffer.from(bytes);
      changed[i]! ^= 0x80;
      expect(unseal("test", changed.toString("base64url")), `byte ${i}`).toBeUndefined();
    }
    expect(unseal("test", bytes.subarray(0, -1).toString("base64url"))).toBeUndefined();
    expect(unseal("test", Buffer.concat([bytes, Buffer.alloc(1)]).toString("base64url"))).toBeUndefined();
    expect(unseal("test", "")).toBeUndefined();
    expect(unseal("test", "A".repeat(40))).toBeUndefined();
  });

  it("opens only the canonical text: stray characters or changed spare bits fail", () => {
    const token = seal("test", plain);
    expect(unseal("test", `${token.slice(0, 10)}.${token.slice(10)}`)).toBeUndefined();
    expect(unseal("test", `${token}=`)).toBeUndefined();
    // 12 + 72 + 16 bytes leave 4 spare bits in the last character: its lowest bit changes no byte.
    expect(plain.length % 3).toBe(0);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const other = token.slice(0, -1) + alphabet[alphabet.indexOf(token.at(-1)!) ^ 1]!;
    expect(Buffer.from(other, "base64url").equals(Buffer.from(token, "base64url"))).toBe(true);
    expect(unseal("test", other)).toBeUndefined();
  });
});
