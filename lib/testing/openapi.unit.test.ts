/** The check the API helper runs on every answer (lib/testing/openapi.ts) catches answers the document does not describe. */
import { beforeAll, describe, expect, it } from "vitest";
import { checkAnswer, documentOf } from "./openapi";

const JSON_TYPE = "application/json";
const instance = { name: "Folio", version: "0.1.0", deployment: "self-hosted", apiVersion: "v1", publicUrl: "http://127.0.0.1:3000" };
const envelope = { error: { code: "NOT_FOUND", message: "No render with id x", retryable: false } };

describe("checkAnswer", () => {
  beforeAll(() => documentOf(), 60_000);

  it("passes answers that fit: a success, an error envelope, an unknown path's 404", async () => {
    await checkAnswer("GET", "/v1/instance", 200, JSON_TYPE, instance);
    await checkAnswer("GET", "/v1/renders/rnd_1", 404, JSON_TYPE, envelope);
    await checkAnswer("GET", "/v1/renders/rnd_1", 402, JSON_TYPE, { error: { ...envelope.error, code: "QUOTA_EXCEEDED" } });
    await checkAnswer("DELETE", "/v1/no-such-thing", 404, JSON_TYPE, envelope);
  });

  it("fails a field the document lacks, naming the path, status and violation", async () => {
    await expect(checkAnswer("GET", "/v1/instance", 200, JSON_TYPE, { ...instance, extra: 1 })).rejects.toThrow(
      /GET \/v1\/instance \(\/v1\/instance\) answered 200, which does not fit the document:[\s\S]*extra/,
    );
  });

  it("fails a missing or mistyped field, an unknown error code, an unlisted success status, an unknown operation", async () => {
    const { version: _v, ...noVersion } = instance;
    await expect(checkAnswer("GET", "/v1/instance", 200, JSON_TYPE, noVersion)).rejects.toThrow(/version/);
    await expect(checkAnswer("GET", "/v1/renders/rnd_1", 200, JSON_TYPE, { id: "rnd_1", state: "done" })).rejects.toThrow(/\/v1\/renders\/\{id\}/);
    await expect(checkAnswer("GET", "/v1/renders/rnd_1", 404, JSON_TYPE, { error: { ...envelope.error, code: "GONE" } })).rejects.toThrow(/code/);
    await expect(checkAnswer("GET", "/v1/instance", 201, JSON_TYPE, instance)).rejects.toThrow(/a status the document does not list/);
    await expect(checkAnswer("PATCH", "/v1/instance", 200, JSON_TYPE, instance)).rejects.toThrow(/no such operation/);
  });
});
