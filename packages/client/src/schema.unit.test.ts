/** The client's types are generated from the server's OpenAPI document, and current. */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENT_TYPES_FILE, clientTypes } from "../../../scripts/client-types";

describe("packages/client/src/schema.ts", () => {
  it("is what `npm run client:types` writes from the current OpenAPI document (run it after changing the API)", async () => {
    const root = path.resolve(import.meta.dirname, "../../..");
    const text = await clientTypes();
    expect(text).toMatch(/"\/v1\/renders\/\{id\}": \{/);
    expect(fs.readFileSync(path.join(root, CLIENT_TYPES_FILE), "utf8")).toBe(text);
  });
});
