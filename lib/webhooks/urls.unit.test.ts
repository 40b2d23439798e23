import { describe, expect, it } from "vitest";
import { checkUrlShape, checkWebhookUrl, type Resolver } from "./urls";

const hosted = { hosted: true, allowPrivate: false };
const selfHosted = { hosted: false, allowPrivate: false };
const selfHostedPrivate = { hosted: false, allowPrivate: true };
const resolvesTo = (...addresses: string[]): Resolver => async () => addresses;
const doesNotResolve: Resolver = async () => {
  throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
};

describe("checkWebhookUrl", () => {
  it("accepts a public https URL whose host resolves to public addresses only", async () => {
    const r = await checkWebhookUrl("https://hooks.example.com/folio?x=1", hosted, resolvesTo("93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"));
    expect(r).toMatchObject({ ok: true, addresses: ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"] });
  });

  it("refuses a host name that resolves to 127.0.0.1 on the hosted service", async () => {
    const r = await checkWebhookUrl("https://rebind.example.com/hook", hosted, resolvesTo("127.0.0.1"));
    expect(r).toEqual({ ok: false, reason: "host rebind.example.com resolves to a loopback address (127.0.0.1)" });
  });

  it("refuses when any one of the addresses is private (IPv4 or IPv6)", async () => {
    expect((await checkWebhookUrl("https://a.example.com", selfHosted, resolvesTo("8.8.8.8", "10.0.0.5"))).ok).toBe(false);
    expect((await checkWebhookUrl("https://a.example.com", selfHosted, resolvesTo("8.8.8.8", "fd00:ec2::254"))).ok).toBe(false);
  });

  it("refuses a name that does not resolve", async () => {
    expect(await checkWebhookUrl("https://nowhere.invalid/x", hosted, doesNotResolve)).toEqual({ ok: false, reason: "host nowhere.invalid does not resolve" });
    expect(await checkWebhookUrl("https://empty.example.com/x", hosted, resolvesTo())).toEqual({ ok: false, reason: "host empty.example.com does not resolve" });
  });

  it("refuses cloud metadata addresses given literally", async () => {
    expect((await checkWebhookUrl("http://169.254.169.254/latest/meta-data", selfHosted)).ok).toBe(false);
    expect((await checkWebhookUrl("http://[fd00:ec2::254]/", selfHosted)).ok).toBe(false);
  });

  it("allows private addresses, http and localhost self-hosted with WEBHOOK_ALLOW_PRIVATE_NETWORKS, never hosted", async () => {
    expect((await checkWebhookUrl("http://127.0.0.1:9000/hook", selfHostedPrivate)).ok).toBe(true);
    expect((await checkWebhookUrl("http://localhost:9000/hook", selfHostedPrivate, resolvesTo("127.0.0.1"))).ok).toBe(true);
    expect((await checkWebhookUrl("http://10.0.0.8/hook", selfHostedPrivate)).ok).toBe(true);
    expect((await checkWebhookUrl("https://127.0.0.1/hook", { hosted: true, allowPrivate: true })).ok).toBe(false);
    // Cloud metadata stays refused, literal or resolved.
    expect(await checkWebhookUrl("http://169.254.169.254/latest", selfHostedPrivate)).toEqual({ ok: false, reason: "points at a cloud metadata address (169.254.169.254)" });
    expect(await checkWebhookUrl("http://meta.example.com/", selfHostedPrivate, resolvesTo("10.0.0.1", "fd00:ec2::254"))).toEqual({
      ok: false,
      reason: "host meta.example.com resolves to a cloud metadata address (fd00:ec2::254)",
    });
    // The same address in the IPv6 forms that carry an IPv4 address, and link-local.
    for (const [url, reason] of [
      ["http://[::ffff:169.254.169.254]/", "points at a cloud metadata address (::ffff:a9fe:a9fe)"],
      ["http://[::169.254.169.254]/", "points at a cloud metadata address (::a9fe:a9fe)"],
      ["http://[::ffff:0:a9fe:a9fe]/", "points at a cloud metadata address (::ffff:0:a9fe:a9fe)"],
      ["http://[64:ff9b::a9fe:a9fe]/", "points at a cloud metadata address (64:ff9b::a9fe:a9fe)"],
      ["http://2852039166/", "points at a cloud metadata address (169.254.169.254)"],
      ["http://169.254.1.1/", "points at a link-local address (169.254.1.1)"],
      ["http://[fe80::1]/", "points at a link-local address (fe80::1)"],
    ]) {
      expect(await checkWebhookUrl(url!, selfHostedPrivate), url).toEqual({ ok: false, reason });
    }
  });

  it("refuses SRv6 (5f00::/16) and unspecified addresses, literal or resolved, where only the public internet is allowed", async () => {
    expect(await checkWebhookUrl("https://[5f00::1]/", hosted)).toEqual({ ok: false, reason: "points at a reserved address (5f00::1)" });
    expect(await checkWebhookUrl("https://sid.example.com/", hosted, resolvesTo("2606:4700::1111", "5f00::1"))).toEqual({
      ok: false,
      reason: "host sid.example.com resolves to a reserved address (5f00::1)",
    });
    expect(await checkWebhookUrl("https://zero.example.com/", hosted, resolvesTo("0.0.0.0"))).toEqual({
      ok: false,
      reason: "host zero.example.com resolves to an unspecified address (0.0.0.0)",
    });
  });
});

describe("checkUrlShape", () => {
  it.each([
    ["ftp://example.com/x", selfHosted, "must use https (or http on a self-hosted installation)"],
    ["file:///etc/passwd", selfHosted, "must use https (or http on a self-hosted installation)"],
    ["http://example.com/x", hosted, "must use https"],
    ["https://user:pass@example.com/x", selfHosted, "must not contain credentials"],
    ["https://user@example.com/x", selfHosted, "must not contain credentials"],
    ["https://localhost/x", selfHosted, "must not point at localhost"],
    ["https://LOCALHOST./x", selfHosted, "must not point at localhost"],
    ["https://api.localhost/x", selfHosted, "must not point at localhost"],
    ["https://127.0.0.1/x", selfHosted, "points at a loopback address (127.0.0.1)"],
    ["https://[::1]/x", selfHosted, "points at a loopback address (::1)"],
    ["https://0x7f000001/x", selfHosted, "points at a loopback address (127.0.0.1)"],
    ["not a url", selfHosted, "is not a valid URL"],
  ])("refuses %s", (url, policy, reason) => {
    expect(checkUrlShape(url, policy)).toEqual({ ok: false, reason });
  });

  it("accepts http self-hosted and https everywhere", () => {
    expect(checkUrlShape("http://example.com/x", selfHosted).ok).toBe(true);
    expect(checkUrlShape("https://example.com/x", hosted).ok).toBe(true);
  });
});
