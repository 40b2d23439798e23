import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { admitJoin, JOINS_AT_ONCE } from "./combined";

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
};

describe("combined PDF joins admitted before any file is read", () => {
  it("takes one join per workspace and JOINS_AT_ONCE in all, answering 429 past either, and frees each on release", () => {
    const first = admitJoin("ws_a");
    expect(refusal(() => admitJoin("ws_a"))).toMatchObject({ code: "RATE_LIMITED", message: "This workspace's combined PDF of another batch is being made; retry when it is done" });
    const others = Array.from({ length: JOINS_AT_ONCE - 1 }, (_, i) => admitJoin(`ws_${i}`));
    const full = refusal(() => admitJoin("ws_z"));
    expect(full).toBeInstanceOf(AppError);
    expect(full).toMatchObject({ code: "RATE_LIMITED", message: `${JOINS_AT_ONCE} combined PDFs are being made on this server; retry in a moment` });
    expect((full as AppError).headers?.["retry-after"]).toBeUndefined();
    first();
    const again = admitJoin("ws_a");
    for (const release of [again, ...others]) release();
    const after = Array.from({ length: JOINS_AT_ONCE }, (_, i) => admitJoin(`ws_b${i}`));
    for (const release of after) release();
  });
});
