/**
 * Webhook verification against signatures made by the server's own signing code
 * (lib/webhooks/sign.ts, Standard Webhooks through the `standardwebhooks` package).
 */
import { describe, expect, it } from "vitest";
import { newWebhookSecret, signDelivery } from "@/lib/webhooks/sign";
import { FolioError, verifyWebhook } from "./index";

const body = JSON.stringify({ type: "render.succeeded", data: { id: "rnd_1" } });

describe("verifyWebhook", () => {
  it("accepts the server's signature, with either secret during a rotation, as Headers or a plain object", async () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const at = new Date();
    const headers = signDelivery("msg_1", body, [current, previous], at);
    expect(await verifyWebhook(body, headers, current)).toEqual(JSON.parse(body));
    expect(await verifyWebhook(body, new Headers(headers), previous)).toEqual(JSON.parse(body));
    expect(await verifyWebhook(body, headers, [newWebhookSecret(), previous])).toEqual(JSON.parse(body));
  });

  it("refuses another secret, a changed body, a missing header and an old timestamp with WEBHOOK_INVALID", async () => {
    const secret = newWebhookSecret();
    const headers = signDelivery("msg_2", body, [secret], new Date());
    const refused = async (p: Promise<unknown>, why: RegExp) => {
      const e = await p.catch((x: unknown) => x);
      expect(e).toBeInstanceOf(FolioError);
      expect(e).toMatchObject({ code: "WEBHOOK_INVALID", status: 400 });
      expect((e as Error).message).toMatch(why);
    };
    await refused(verifyWebhook(body, headers, newWebhookSecret()), /no signature matches/);
    await refused(verifyWebhook(body.replace("rnd_1", "rnd_2"), headers, secret), /no signature matches/);
    await refused(verifyWebhook(body, { ...headers, "webhook-signature": undefined }, secret), /header is missing/);
    const old = signDelivery("msg_3", body, [secret], new Date(Date.now() - 10 * 60_000));
    await refused(verifyWebhook(body, old, secret), /more than 300 s from now/);
    expect(await verifyWebhook(body, old, secret, { toleranceSeconds: 900 })).toEqual(JSON.parse(body));
  });
});
