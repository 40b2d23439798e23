import { describe, expect, it } from "vitest";
import { CONSOLE_HEADER_BYTES, consoleHeaders } from "./file-response";

// A Handlebars preview's console output travels in x-folio-console (docs/api.md, Handlebars templates).
const decode = (h: Record<string, string>) => JSON.parse(Buffer.from(h["x-folio-console"]!, "base64").toString("utf8")) as unknown[];

describe("consoleHeaders", () => {
  it("sends nothing for a template kind without a console, [] for a run that logged nothing", () => {
    expect(consoleHeaders(undefined)).toEqual({});
    const h = consoleHeaders([]);
    expect(decode(h)).toEqual([]);
    expect(h["x-folio-console-omitted"]).toBe("0");
  });

  it("keeps entries in order, multi-byte text intact, and counts those that do not fit in 8,000 characters", () => {
    const entries = Array.from({ length: 100 }, (_, i) => ({ step: "script totals", level: "log", message: `${i} ${"é".repeat(1990)}` }));
    const h = consoleHeaders(entries);
    expect(h["x-folio-console"]!.length).toBeLessThanOrEqual(CONSOLE_HEADER_BYTES);
    const kept = decode(h);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(entries.slice(0, kept.length));
    expect(Number(h["x-folio-console-omitted"])).toBe(100 - kept.length);
    // As many as fit: one more would not.
    expect(Buffer.from(JSON.stringify(entries.slice(0, kept.length + 1))).toString("base64").length).toBeGreaterThan(CONSOLE_HEADER_BYTES);
  });
});
