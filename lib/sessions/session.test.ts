import { beforeAll, describe, expect, inject, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";

// spec: Authentication; docs/api.md: a console session is a cookie, which a browser sends whichever
// site made the request, so an unsafe request with it must show it came from the console itself.
const CONSOLE = () => new URL(inject("baseUrl")).origin;
const ATTACKER = "https://attacker.example";

let w: TestWorkspace;
let cookie: string;
beforeAll(async () => {
  w = await createTestWorkspace();
  cookie = (await w.signIn("owner")).cookie;
});

/** POST /v1/api-keys (a console-only action) with the session and exactly the given site headers. */
const createKeyWith = (headers: Record<string, string>) =>
  api("/v1/api-keys", { cookie, origin: null, headers, body: { name: `csrf ${Object.values(headers).join(" ")}`, scopes: ["audit:read"] } });

const keyNames = async () => ((await api("/v1/api-keys", { key: w.key })).body.items as { name: string }[]).map((k) => k.name);

describe("console session: unsafe requests must come from the console's origin", () => {
  it.each([
    ["a matching Origin", () => ({ origin: CONSOLE() })],
    ["Sec-Fetch-Site: same-origin without Origin", () => ({ "sec-fetch-site": "same-origin" })],
    ["both, matching", () => ({ origin: CONSOLE(), "sec-fetch-site": "same-origin" })],
  ])("accepts %s", async (_name, headers) => {
    const res = await createKeyWith(headers());
    expect(res.status, res.text).toBe(201);
  });

  it.each([
    ["another site's Origin", () => ({ origin: ATTACKER })],
    ["neither Origin nor Sec-Fetch-Site", () => ({})],
    ["Sec-Fetch-Site: cross-site without Origin", () => ({ "sec-fetch-site": "cross-site" })],
    ["Sec-Fetch-Site: same-site (a sibling subdomain) without Origin", () => ({ "sec-fetch-site": "same-site" })],
    ["Sec-Fetch-Site: none (typed or bookmarked) without Origin", () => ({ "sec-fetch-site": "none" })],
    ["Origin: null (a sandboxed frame or a redirect)", () => ({ origin: "null" })],
    ["a matching Origin with Sec-Fetch-Site: cross-site", () => ({ origin: CONSOLE(), "sec-fetch-site": "cross-site" })],
    ["Sec-Fetch-Site: same-origin with another Origin", () => ({ origin: ATTACKER, "sec-fetch-site": "same-origin" })],
    ["the console's host on another scheme", () => ({ origin: CONSOLE().replace("http:", "https:") })],
  ])("refuses %s with 403 FORBIDDEN, creating nothing", async (_name, headers) => {
    const sent = headers();
    const e = expectError(await createKeyWith(sent), 403, "FORBIDDEN");
    expect(e.message).toMatch(/origin/i);
    expect(await keyNames()).not.toContain(`csrf ${Object.values(sent).join(" ")}`);
  });

  it("refuses a DELETE without Origin too, and the key stays", async () => {
    const made = await api("/v1/api-keys", { cookie, body: { name: "kept", scopes: ["audit:read"] } });
    expect(made.status).toBe(201);
    expectError(await api(`/v1/api-keys/${made.body.id}`, { method: "DELETE", cookie, origin: null }), 403, "FORBIDDEN");
    expect(await keyNames()).toContain("kept");
    expect((await api(`/v1/api-keys/${made.body.id}`, { method: "DELETE", cookie })).status).toBe(200);
  });

  it("lets safe requests through from anywhere: reading changes nothing, and CORS keeps the answer from other sites", async () => {
    const res = await api("/v1/api-keys", { cookie, headers: { origin: ATTACKER, "sec-fetch-site": "cross-site" } });
    expect(res.status).toBe(200);
  });

  it("leaves requests authenticated by an API key alone: a key is no ambient credential", async () => {
    const res = await api("/v1/templates", {
      key: w.key,
      headers: { origin: ATTACKER, "sec-fetch-site": "cross-site" },
      body: { name: "from a script elsewhere", content: { composition: { root: { type: "text", text: "x" } } } },
    });
    expect(res.status, res.text).toBe(201);
    // A key on an endpoint that also takes a session is judged as a key, whatever cookie comes along.
    const listed = await api("/v1/api-keys", { key: w.key, cookie, method: "GET", headers: { origin: ATTACKER } });
    expect(listed.status).toBe(200);
  });
});
