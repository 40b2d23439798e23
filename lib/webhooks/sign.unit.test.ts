import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, nextAttemptAfter, newWebhookSecret, signDelivery } from "./sign";

describe("newWebhookSecret", () => {
  it("is whsec_ and the base64 of 32 random bytes, different every time", () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), "base64")).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(a);
  });
});

describe("signDelivery", () => {
  const body = JSON.stringify({ id: "evt_1", type: "render.succeeded" });

  it("signs as Standard Webhooks verifies, with the spec's headers", () => {
    const secret = newWebhookSecret();
    const headers = signDelivery("msg_1", body, [secret], new Date());
    expect(headers).toMatchObject({ "webhook-id": "msg_1", "content-type": "application/json", "user-agent": "service-webhooks/1" });
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it("carries one signature per secret, each verifying on its own", () => {
    const [a, b] = [newWebhookSecret(), newWebhookSecret()];
    const headers = signDelivery("msg_2", body, [a, b], new Date());
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(() => new Webhook(a).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(b).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });

  it("uses the attempt's time in whole seconds; a stale timestamp is rejected by receivers", () => {
    const at = new Date("2026-01-02T03:04:05.678Z");
    const secret = newWebhookSecret();
    const headers = signDelivery("msg_3", body, [secret], at);
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(at.getTime() / 1000)));
    expect(() => new Webhook(secret).verify(body, headers)).toThrow(/timestamp/i);
  });
});

describe("nextAttemptAfter", () => {
  it("follows the spec's schedule from the previous attempt, and ends after the 11th", () => {
    const at = new Date("2026-01-01T00:00:00Z");
    const waits = [];
    for (let n = 1; n < MAX_ATTEMPTS; n++) waits.push((nextAttemptAfter(n, at)!.getTime() - at.getTime()) / 1000);
    expect(waits).toEqual([30, 120, 300, 900, 1800, 3600, 7200, 14400, 28800, 28800]);
    expect(MAX_ATTEMPTS).toBe(11);
    expect(nextAttemptAfter(11, at)).toBeUndefined();
  });
});
