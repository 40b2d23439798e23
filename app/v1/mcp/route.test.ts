import { randomBytes, randomInt } from "node:crypto";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { scopes } from "@/lib/auth/scopes";
import { createTestWorkspace, requestFrom, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { startWebServer, type WebServer } from "@/lib/testing/server";

// Issue 26 item 4: the MCP server at /v1/mcp, driven by the SDK's own client over Streamable HTTP
// against the real web server and worker (docs/api.md, MCP server).

const TOOLS = ["check_data", "create_batch", "get_batch", "get_render", "get_template_data_schema", "list_renders", "list_templates", "preview", "render"];
/** The limit of the second web server of this file, which the 429 case spends. */
const LOW_LIMIT = 3;

const dataSchema = {
  type: "object",
  required: ["customer", "total"],
  properties: {
    customer: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
    total: { type: "number", minimum: 0 },
    lines: { type: "array", items: { type: "object", properties: { qty: { type: "integer" } } } },
  },
};
const GOOD = { customer: { name: "Initech" }, total: 12 };
const BAD = { customer: { name: 5 }, total: -1, lines: [{ qty: 1.5 }, { qty: 2 }, { qty: "x" }] };
const BAD_PATHS = ["customer.name", "lines.0.qty", "lines.2.qty", "total"];

let w: TestWorkspace;
let template: { id: string; name: string; versionId: string };
let lowLimit: Promise<WebServer>;

const mcpUrl = (base = inject("baseUrl")) => new URL(`${base}/v1/mcp`);

async function connect(headers: Record<string, string>, modern = false): Promise<Client> {
  const client = new Client({ name: "folio-test", version: "1" }, modern ? { versionNegotiation: { mode: "auto" } } : {});
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { requestInit: { headers } }));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}
const text = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tools' structured output is checked field by field
const structured = (r: CallToolResult) => r.structuredContent as any;

/** The JSON-RPC initialize request as a client's first POST sends it, for the checks in front of the protocol. */
const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
const postHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" };

beforeAll(async () => {
  // why started now and awaited last: its start overlaps the other cases instead of adding to the file's time.
  // /v1's limit as low too: MCP requests counted in /v1's bucket as well would show as a 429 there.
  const low = String(LOW_LIMIT);
  lowLimit = startWebServer({ ...inject("serverEnv"), MCP_RATE_LIMIT_PER_MINUTE: low, API_RATE_LIMIT_PER_MINUTE: low }, inject("dataDir"));
  lowLimit.catch(() => {}); // awaited by its case
  w = await createTestWorkspace();
  const name = `MCP invoice ${randomBytes(3).toString("hex")}`;
  const content = {
    composition: { root: { type: "container", children: [{ type: "text", text: { parts: ["Customer ", { path: ["customer", "name"] }] } }] } },
    dataSchema,
  };
  const created = await api("/v1/templates", { key: w.key, body: { name, content } });
  expect(created.status, created.text).toBe(201);
  const published = await api(`/v1/templates/${created.body.id}/versions`, { key: w.key, body: { expectedRevision: 1 } });
  expect(published.status, published.text).toBe(201);
  template = { id: created.body.id, name, versionId: published.body.id };
});

afterAll(async () => {
  await (await lowLimit.catch(() => undefined))?.stop();
});

describe("the MCP server at /v1/mcp", () => {
  it("initializes over Streamable HTTP, statelessly, and lists every tool with a description and an input schema", async () => {
    const client = await connect({ "x-api-key": w.key });
    expect(client.getProtocolEra()).toBe("legacy");
    expect(client.getServerVersion()?.name).toBe("folio");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const t of tools) {
      expect(t.description?.length, t.name).toBeGreaterThan(40);
      expect(t.inputSchema.type, t.name).toBe("object");
    }
    // The render tools' output schema is the render's, every field of it, not only id and state.
    const renderFields = ["id", "state", "test", "source", "format", "templateId", "templateVersionId", "batchId", "batchIndex", "createdAt", "updatedAt", "startedAt", "finishedAt", "result", "error"];
    const outputOf = (name: string) => tools.find((t) => t.name === name)!.outputSchema as { type: string; properties: Record<string, { properties?: Record<string, unknown>; items?: { properties: Record<string, unknown> } }> };
    for (const name of ["render", "get_render"]) {
      expect(outputOf(name).type, name).toBe("object");
      expect(Object.keys(outputOf(name).properties).sort(), name).toEqual([...renderFields].sort());
      expect(Object.keys(outputOf(name).properties.result!.properties!), name).toEqual(expect.arrayContaining(["downloadUrl", "expiresAt", "pageCount"]));
    }
    expect(Object.keys(outputOf("list_renders").properties.items!.items!.properties).sort()).toEqual([...renderFields].sort());
    for (const name of ["create_batch", "get_batch"]) expect(Object.keys(outputOf(name).properties).sort(), name).toEqual(["counts", "createdAt", "id", "items", "total"]);
    await client.close();
    // A client of the 2026-07-28 revision (per-request envelope, no initialize) is served by the same tools.
    const modern = await connect({ "x-api-key": w.key }, true);
    expect(modern.getProtocolEra()).toBe("modern");
    expect((await modern.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS);
    const checked = await call(modern, "check_data", { templateVersionId: template.versionId, data: GOOD });
    expect(structured(checked)).toMatchObject({ valid: true, violations: [] });
    await modern.close();
  });

  it("renders caller HTML, waits for it, and returns a succeeded render whose download link serves the PDF", async () => {
    // Authorization: Bearer, as MCP clients configured with a token send the key.
    const client = await connect({ authorization: `Bearer ${w.key}` });
    const r = await call(client, "render", { html: "<h1>Hello from MCP</h1>" });
    expect(r.isError, text(r)).toBeFalsy();
    const render = structured(r);
    expect(render.state).toBe("succeeded");
    expect(text(r)).toContain(render.result.downloadUrl);
    const pdf = await fetch(render.result.downloadUrl);
    expect(pdf.status).toBe(200);
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe("%PDF-");

    const again = structured(await call(client, "get_render", { renderId: render.id }));
    expect(again).toMatchObject({ id: render.id, state: "succeeded" });
    const listed = structured(await call(client, "list_renders", { limit: 5 }));
    expect(listed.items.map((i: { id: string }) => i.id)).toContain(render.id);
    await client.close();
  });

  it("lists templates with their data schemas, and check_data names every violation by path", async () => {
    const client = await connect({ "x-api-key": w.key });
    const listed = structured(await call(client, "list_templates", { q: template.name }));
    expect(listed.items).toHaveLength(1);
    expect(listed.items[0]).toMatchObject({ id: template.id, name: template.name, dataSchemaOf: "newestVersion", newestVersionId: template.versionId, dataSchema });

    const bad = await call(client, "check_data", { template: template.name, data: BAD });
    expect(bad.isError, text(bad)).toBeFalsy();
    expect(structured(bad).valid).toBe(false);
    expect(structured(bad).violations.map((v: { path: string }) => v.path).sort()).toEqual(BAD_PATHS);
    for (const p of BAD_PATHS) expect(text(bad)).toContain(`- ${p}:`);
    expect(structured(await call(client, "check_data", { templateId: template.id, data: GOOD })).valid).toBe(true);

    // The render checks the same schema first: a verb's refusal is a tool error naming the code, not a protocol failure.
    const refused = await call(client, "render", { template: template.name, data: BAD });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^BAD_REQUEST: The data does not match the template's data schema/);
    await client.close();
  });

  it("check_data says invalid what render refuses beyond the schema: a value the template needs that the data lacks", async () => {
    // The schema allows lines without quantity; the template prints each line's quantity without a fallback.
    const name = `MCP lines ${randomBytes(3).toString("hex")}`;
    const content = {
      composition: { root: { type: "repeat", source: { path: ["lines"] }, children: [{ type: "text", text: { parts: ["Qty ", { path: ["quantity"] }] } }] } },
      dataSchema: { type: "object", properties: { lines: { type: "array", items: { type: "object", properties: { quantity: { type: "integer" } } } } } },
    };
    const created = await api("/v1/templates", { key: w.key, body: { name, content } });
    expect(created.status, created.text).toBe(201);
    const published = await api(`/v1/templates/${created.body.id}/versions`, { key: w.key, body: { expectedRevision: 1 } });
    expect(published.status, published.text).toBe(201);
    const data = { lines: [{ quantity: 2 }, {}, {}] };

    const client = await connect({ "x-api-key": w.key });
    for (const target of [{ template: name }, { templateVersionId: published.body.id }, { templateId: created.body.id }]) {
      const checked = await call(client, "check_data", { ...target, data });
      expect(checked.isError, text(checked)).toBeFalsy();
      expect(structured(checked), JSON.stringify(target)).toMatchObject({
        valid: false,
        more: false,
        violations: [
          { path: "lines.1.quantity", message: "missing (no fallback)" },
          { path: "lines.2.quantity", message: "missing (no fallback)" },
        ],
      });
      expect(text(checked)).toContain("- lines.1.quantity: missing (no fallback)");
    }
    // What check_data names is what render refuses; data it calls valid renders.
    const refused = await call(client, "render", { template: name, data });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("lines.1.quantity");
    const fixed = { lines: [{ quantity: 2 }, { quantity: 1 }] };
    expect(structured(await call(client, "check_data", { template: name, data: fixed }))).toMatchObject({ valid: true, violations: [] });
    const rendered = await call(client, "render", { template: name, data: fixed });
    expect(rendered.isError, text(rendered)).toBeFalsy();
    expect(structured(rendered).state).toBe("succeeded");
    await client.close();
  });

  it("previews a template's draft as a PNG image the model can look at, as a test render", async () => {
    const client = await connect({ "x-api-key": w.key });
    const r = await call(client, "preview", { templateId: template.id, data: GOOD });
    expect(r.isError, text(r)).toBeFalsy();
    const image = r.content.find((c) => c.type === "image");
    expect(image).toMatchObject({ type: "image", mimeType: "image/png" });
    const png = Buffer.from((image as { data: string }).data, "base64");
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const renderId = /test render (rnd_\w+)/.exec(text(r))?.[1];
    expect(renderId).toBeDefined();
    expect(structured(await call(client, "get_render", { renderId: renderId! }))).toMatchObject({ test: true, format: "png", source: "preview" });
    await client.close();
  });

  it("reads templates as resources: listed under folio://templates/ and read as JSON with the data schema", async () => {
    const client = await connect({ "x-api-key": w.key });
    const uri = `folio://templates/${template.id}`;
    const { resources } = await client.listResources();
    expect(resources.find((r) => r.uri === uri)).toMatchObject({ name: template.name, mimeType: "application/json" });
    const read = await client.readResource({ uri });
    const json = JSON.parse((read.contents[0] as { text: string }).text);
    expect(json).toMatchObject({ id: template.id, name: template.name, dataSchema, newestVersion: { id: template.versionId, version: 1 } });
    await client.close();

    // Another workspace's key sees neither the template nor its renders (404 as in /v1, never a leak).
    const other = await createTestWorkspace();
    const stranger = await connect({ "x-api-key": other.key });
    expect((await stranger.listResources()).resources.map((r) => r.uri)).not.toContain(uri);
    await expect(stranger.readResource({ uri })).rejects.toThrow(/NOT_FOUND/);
    const foreign = await call(stranger, "check_data", { templateId: template.id, data: GOOD });
    expect(foreign.isError).toBe(true);
    expect(text(foreign)).toMatch(/^NOT_FOUND: No template with id /);
    await stranger.close();
  });

  it("creates a batch and reports its state", async () => {
    const client = await connect({ "x-api-key": w.key });
    const created = await call(client, "create_batch", { items: [{ html: "<p>one</p>" }, { template: template.name, data: GOOD }] });
    expect(created.isError, text(created)).toBeFalsy();
    expect(structured(created)).toMatchObject({ total: 2 });
    const batch = structured(await call(client, "get_batch", { batchId: structured(created).id }));
    expect(batch.items.map((i: { index: number }) => i.index)).toEqual([0, 1]);
    expect(batch.items[1].templateVersionId).toBe(template.versionId);
    // A bad item names its index, and nothing is created.
    const bad = await call(client, "create_batch", { items: [{ html: "<p>ok</p>" }, { template: template.name, data: BAD }] });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/^BAD_REQUEST: Batch item 1: /);
    await client.close();
  });

  it("refuses a tool whose scope the key lacks, naming the scope, and says what is wrong with bad input", async () => {
    const k = await w.newKey(scopes.filter((s) => s !== "render:create"));
    const client = await connect({ "x-api-key": k.secret });
    const refused = await call(client, "render", { html: "<p>no</p>" });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("FORBIDDEN: This key lacks render:create, needed to create renders");
    // The key still reads: listing is not refused.
    expect((await call(client, "list_renders", {})).isError).toBeFalsy();
    await client.close();

    const full = await connect({ "x-api-key": w.key });
    const bad = await call(full, "render", { html: "<p>x</p>", format: "docx" });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/Invalid arguments for tool render: format: .*"pdf"\|"png"\|"jpeg"/);
    const two = await call(full, "render", { html: "<p>x</p>", templateVersionId: template.versionId });
    expect(two.isError).toBe(true);
    expect(text(two)).toContain("BAD_REQUEST: html: send exactly one of template, templateVersionId, html (got templateVersionId and html)");
    await full.close();
  });

  it("answers 401 without a valid key and 403 for a foreign Origin or Host, in the error envelope", async () => {
    const post = (headers: Record<string, string>) => api("/v1/mcp", { method: "POST", body: initialize, headers: { ...postHeaders, ...headers } });
    // A Bearer challenge with Folio's message, and no OAuth resource metadata: hosts show the
    // message instead of starting an authorization flow.
    const missing = await post({});
    expect(expectError(missing, 401, "UNAUTHORIZED").message).toBe("A valid API key is required in the x-api-key header or as Authorization: Bearer <key>");
    expect(missing.headers.get("www-authenticate")).toBe(
      'Bearer realm="folio", error="invalid_token", error_description="A valid API key is required in the x-api-key header or as Authorization: Bearer <key>"',
    );
    const wrong = await post({ "x-api-key": `folio_${"x".repeat(40)}` });
    expectError(wrong, 401, "UNAUTHORIZED");
    expect(wrong.headers.get("www-authenticate")).toBe('Bearer realm="folio", error="invalid_token", error_description="The API key is not valid"');
    const wrongBearer = await post({ authorization: `Bearer folio_${"y".repeat(40)}` });
    expect(wrongBearer.headers.get("www-authenticate")).toMatch(/^Bearer realm="folio", error="invalid_token", error_description="[^"]+"$/);
    expect(wrongBearer.headers.get("www-authenticate")).not.toContain("resource_metadata");
    const foreign = expectError(await post({ "x-api-key": w.key, origin: "https://evil.example" }), 403, "FORBIDDEN");
    expect(foreign.message).toContain("https://evil.example");
    // The SDK's client fails to connect without a key.
    await expect(connect({})).rejects.toThrow();

    const base = inject("baseUrl");
    expect((await post({ "x-api-key": w.key, origin: new URL(base).origin })).status).toBe(200);
    // Stateless: no session stream to open or end; after the same checks the SDK answers 405.
    const unkeyedGet = await api("/v1/mcp", { headers: { accept: "text/event-stream" } });
    expectError(unkeyedGet, 401, "UNAUTHORIZED");
    expect(unkeyedGet.headers.get("www-authenticate")).toMatch(/^Bearer realm="folio", error="invalid_token"/);
    const get = await api("/v1/mcp", { key: w.key, headers: { accept: "text/event-stream" } });
    expect(get.status, get.text).toBe(405);
    const rebound = await requestFrom("127.0.0.1", `${base}/v1/mcp`, { method: "POST", headers: { ...postHeaders, "x-api-key": w.key, host: "attacker.example" }, body: initialize });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error.code).toBe("FORBIDDEN");
  });

  it("counts requests per client address in a bucket of its own: past the limit 429 with Retry-After", async () => {
    const server = await lowLimit;
    // Cases need their requests in one clock minute: in its last 5 s, wait for the next one.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute >= 55_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 100));
    const from = `127.${randomInt(1, 255)}.${randomInt(256)}.${randomInt(1, 255)}`;
    const send = () => requestFrom(from, `${server.baseUrl}/v1/mcp`, { method: "POST", headers: { ...postHeaders, "x-api-key": w.key }, body: initialize });
    for (let i = 0; i < LOW_LIMIT; i++) expect((await send()).status).toBe(200);
    const over = await send();
    expect(over.status).toBe(429);
    expect(JSON.parse(over.body).error).toMatchObject({ code: "RATE_LIMITED", retryable: true });
    expect(Number(over.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(Number(over.headers["retry-after"])).toBeLessThanOrEqual(60);
    // /v1's own count is apart: the same address still reads the API (its limit is as low).
    expect((await requestFrom(from, `${server.baseUrl}/v1/instance`)).status).toBe(200);
  });
});
