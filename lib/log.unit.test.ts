import { DrizzleQueryError } from "drizzle-orm/errors";
import { describe, expect, it } from "vitest";
import { safeError, safeErrorText } from "./log";

/** An error shaped as postgres.js makes PostgreSQL's (the fields the server sent, by name). */
function postgresError(message: string, fields: Record<string, string>) {
  const e = Object.assign(new Error(message), { name: "PostgresError", severity: "ERROR", ...fields });
  Object.defineProperty(e, "parameters", { value: ["hidden-param"], enumerable: false });
  return e;
}

describe("safeError", () => {
  const secret = "caller-secret-3f9a";
  const pg = postgresError(`invalid input syntax for type integer: "${secret}"`, { code: "22P02", routine: "pg_strtoint32_safe", detail: `Key (email)=(${secret}) already exists.` });
  const err = new DrizzleQueryError(`insert into "users" ("email", "password_hash") values ($1, $2)`, [secret, "$argon2id$hash"], pg);

  it("keeps the class, codes, statement text and frames, and none of the values", () => {
    const safe = safeError(err);
    expect(safe).toMatchObject({
      type: "DrizzleQueryError",
      message: "Failed query",
      query: `insert into "users" ("email", "password_hash") values ($1, $2)`,
      stack: expect.stringMatching(/^\s+at /),
      cause: { type: "PostgresError", message: 'invalid input syntax for type integer: "…"', code: "22P02", severity: "ERROR", routine: "pg_strtoint32_safe" },
    });
    const text = JSON.stringify(safe);
    expect(text).not.toContain(secret);
    expect(text).not.toContain("argon2id");
    expect(text).not.toContain("hidden-param");
    expect(safeErrorText(err)).toBe('Failed query: invalid input syntax for type integer: "…" (22P02)');
  });

  it("keeps a plain error's message, a string's text, and only the type of anything else", () => {
    expect(safeError(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED", port: 5432 }))).toMatchObject({
      message: "connect ECONNREFUSED 127.0.0.1:5432",
      code: "ECONNREFUSED",
      port: 5432,
    });
    expect(safeError("aborted")).toEqual({ type: "string", message: "aborted" });
    expect(safeError({ html: secret })).toEqual({ type: "object", message: "a value that is not an Error was thrown" });
  });
});
