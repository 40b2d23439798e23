import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { assertHostAndOrigin, keyOf } from "./guard";

const h = (o: Record<string, string>) => new Headers(o);
const code = (f: () => void) => {
  try {
    f();
    return "ok";
  } catch (e) {
    return e instanceof AppError ? `${e.status} ${e.code}` : String(e);
  }
};

describe("assertHostAndOrigin (DNS-rebinding protection of /v1/mcp)", () => {
  const pub = "https://folio.example.com";
  it("takes PUBLIC_URL's host, with or without its default port, and refuses any other, loopback included", () => {
    expect(code(() => assertHostAndOrigin(h({ host: "folio.example.com" }), pub))).toBe("ok");
    expect(code(() => assertHostAndOrigin(h({ host: "FOLIO.example.com:443" }), pub))).toBe("ok");
    expect(code(() => assertHostAndOrigin(h({ host: "attacker.example" }), pub))).toBe("403 FORBIDDEN");
    expect(code(() => assertHostAndOrigin(h({ host: "localhost" }), pub))).toBe("403 FORBIDDEN");
    expect(code(() => assertHostAndOrigin(h({ host: "folio.example.com:8443" }), pub))).toBe("403 FORBIDDEN");
    expect(code(() => assertHostAndOrigin(h({ host: "folio.example.com/x" }), pub))).toBe("403 FORBIDDEN");
    expect(code(() => assertHostAndOrigin(h({}), pub))).toBe("403 FORBIDDEN");
  });

  it("takes no Origin or PUBLIC_URL's own, and refuses other origins and null", () => {
    const host = { host: "folio.example.com" };
    expect(code(() => assertHostAndOrigin(h({ ...host, origin: "https://folio.example.com" }), pub))).toBe("ok");
    expect(code(() => assertHostAndOrigin(h({ ...host, origin: "http://folio.example.com" }), pub))).toBe("403 FORBIDDEN");
    expect(code(() => assertHostAndOrigin(h({ ...host, origin: "https://evil.example" }), pub))).toBe("403 FORBIDDEN");
    expect(code(() => assertHostAndOrigin(h({ ...host, origin: "null" }), pub))).toBe("403 FORBIDDEN");
  });

  it("on a loopback PUBLIC_URL, answers any loopback name of the same port (a developer's machine)", () => {
    const dev = "http://localhost:3000";
    for (const host of ["localhost:3000", "127.0.0.1:3000", "[::1]:3000", "app.localhost:3000"]) {
      expect(code(() => assertHostAndOrigin(h({ host, origin: `http://${host}` }), dev)), host).toBe("ok");
    }
    expect(code(() => assertHostAndOrigin(h({ host: "localhost:3001" }), dev))).toBe("403 FORBIDDEN");
    expect(code(() => assertHostAndOrigin(h({ host: "rebind.attacker.example:3000" }), dev))).toBe("403 FORBIDDEN");
    expect(code(() => assertHostAndOrigin(h({ host: "localhost:3000", origin: "http://attacker.example:3000" }), dev))).toBe("403 FORBIDDEN");
  });
});

describe("keyOf", () => {
  it("reads x-api-key or Authorization: Bearer, and refuses two different keys", () => {
    expect(keyOf(h({ "x-api-key": "folio_a" }))).toBe("folio_a");
    expect(keyOf(h({ authorization: "Bearer folio_b" }))).toBe("folio_b");
    expect(keyOf(h({ authorization: "bearer  folio_b " }))).toBe("folio_b");
    expect(keyOf(h({ authorization: "Basic Zm9v" }))).toBeNull();
    expect(keyOf(h({}))).toBeNull();
    expect(keyOf(h({ "x-api-key": "folio_a", authorization: "Bearer folio_a" }))).toBe("folio_a");
    expect(code(() => keyOf(h({ "x-api-key": "folio_a", authorization: "Bearer folio_b" })))).toBe("401 UNAUTHORIZED");
  });
});
