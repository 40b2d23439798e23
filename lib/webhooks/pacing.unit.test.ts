import { describe, expect, it } from "vitest";
import { startLimiter } from "./pacing";

describe("startLimiter (the worker's webhook attempts while it renders)", () => {
  it("without a limit lets every free slot start at once, with no gap", () => {
    const l = startLimiter(() => undefined, () => 0);
    expect(l.available(32)).toBe(32);
    l.take(32);
    expect(l.available(32)).toBe(32);
    expect(l.gapMs()).toBe(0);
  });

  it("at 50 a second hands out batches of 12 every quarter second, started 20 ms apart, and never more than 50 a second", () => {
    let now = 0;
    const l = startLimiter(() => 50, () => now);
    expect(l.available(32)).toBe(0); // nothing saved up at the start
    now = 250;
    expect(l.available(32)).toBe(12);
    expect(l.gapMs()).toBe(20);
    l.take(12);
    now = 260;
    expect(l.available(32)).toBe(0);
    let started = 12;
    for (now = 260; now <= 10_250; now += 10) {
      const n = l.available(32);
      l.take(n);
      started += n;
    }
    expect(started).toBeLessThanOrEqual(12 + 50 * 10);
    expect(started).toBeGreaterThanOrEqual(50 * 10 - 12);
  });

  it("a batch is at most the free slots, and a long pause saves up no more than one batch", () => {
    let now = 0;
    const l = startLimiter(() => 50, () => now);
    now = 60_000;
    expect(l.available(5)).toBe(5);
    expect(l.available(32)).toBe(12);
  });

  it("a limit lifted applies at once, and one set again starts from a full batch", () => {
    let rate: number | undefined = 50;
    const l = startLimiter(() => rate, () => 0);
    expect(l.available(32)).toBe(0);
    rate = undefined;
    expect(l.available(32)).toBe(32);
    rate = 50;
    expect(l.available(32)).toBe(12);
  });
});
