/**
 * Which endpoints a destination may use (spec: Storage destination > endpoint; Limits >
 * DESTINATION_ALLOW_PRIVATE_NETWORKS), through the verbs with the hosted and self-hosted settings.
 * The servers of the test run allow private networks; these cases switch this process's settings.
 */
import dns from "node:dns";
import os from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { systemCtx } from "../auth/context";
import { resetConfigForTests } from "../config";
import { AppError } from "../errors";
import { classifyAddress } from "../net/addresses";
import { createTestWorkspace } from "../testing/factories";
import { createDestination, listDestinations } from ".";
import { classifyS3Error } from "./classify";
import { endpointRefusal, testUpload } from "./s3";

const saved = { mode: process.env.DEPLOYMENT_MODE, allow: process.env.DESTINATION_ALLOW_PRIVATE_NETWORKS };
function settings(mode: "hosted" | "self-hosted", allowPrivate: boolean) {
  process.env.DEPLOYMENT_MODE = mode;
  process.env.DESTINATION_ALLOW_PRIVATE_NETWORKS = String(allowPrivate);
  resetConfigForTests();
}
afterEach(() => {
  if (saved.mode === undefined) delete process.env.DEPLOYMENT_MODE;
  else process.env.DEPLOYMENT_MODE = saved.mode;
  if (saved.allow === undefined) delete process.env.DESTINATION_ALLOW_PRIVATE_NETWORKS;
  else process.env.DESTINATION_ALLOW_PRIVATE_NETWORKS = saved.allow;
  resetConfigForTests();
});

async function refusal(endpoint: string) {
  const w = await createTestWorkspace();
  const ctx = systemCtx(w.id, "test");
  const e = await createDestination(ctx, { name: "X", endpoint, region: "us-east-1", bucket: "b", forcePathStyle: true, accessKeyId: "k", secretAccessKey: "s" }).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, endpoint).toBeInstanceOf(AppError);
  expect((await listDestinations(ctx)).items).toEqual([]);
  return e as AppError;
}

/** This machine's host name, which resolves to a loopback or private address here. */
const localName = os.hostname();

describe("destination endpoints", () => {
  it("hosted: refuses http, localhost, private, loopback, link-local and metadata addresses, and names resolving to them", async () => {
    settings("hosted", true); // the private-network setting has no effect on the hosted service
    for (const endpoint of [
      "http://s3.example.com",
      "https://localhost:9000",
      "https://files.localhost",
      "https://127.0.0.1:9000",
      "https://10.0.0.5",
      "https://192.168.1.10",
      "https://169.254.169.254",
      "https://[::1]:9000",
      "https://[fd00:ec2::254]",
      "https://100.64.0.1",
    ]) {
      const e = await refusal(endpoint);
      expect(e.code).toBe("BAD_REQUEST");
      expect(e.details, endpoint).toEqual([{ path: "endpoint", message: expect.stringMatching(/https|public internet/) }]);
      expect(e.message).toMatch(/hosted service/);
    }
    const resolved = await dns.promises.lookup(localName, { all: true });
    expect(resolved.some((a) => classifyAddress(a.address).kind !== "public"), `${localName} should resolve to a private address here`).toBe(true);
    expect((await refusal(`https://${localName}:9443`)).message).toMatch(/resolves to/);
    expect((await refusal("https://no-such-host.invalid")).message).toMatch(/does not resolve/);
  });

  it("self-hosted without DESTINATION_ALLOW_PRIVATE_NETWORKS: the same rules", async () => {
    settings("self-hosted", false);
    expect((await refusal("http://127.0.0.1:9000")).message).toMatch(/https:\/\/.*DESTINATION_ALLOW_PRIVATE_NETWORKS/);
    expect((await refusal("https://127.0.0.1:9000")).message).toMatch(/public internet/);
  });

  it("self-hosted with DESTINATION_ALLOW_PRIVATE_NETWORKS: private addresses allowed, cloud metadata and link-local refused when saved and before each upload", async () => {
    settings("self-hosted", true);
    for (const endpoint of ["http://169.254.169.254", "https://[fd00:ec2::254]", "http://[::ffff:0:a9fe:a9fe]", "http://169.254.1.1:9000", "http://[fe80::1]:9000"]) {
      const e = await refusal(endpoint);
      expect(e.details, endpoint).toEqual([{ path: "endpoint", message: expect.stringMatching(/(cloud metadata|link-local) address/) }]);
    }
    expect(endpointRefusal("http://169.254.169.254")).toBe("the endpoint 169.254.169.254 is a cloud metadata address, refused even where private networks are allowed");
    expect(endpointRefusal("http://[fd00:ec2::254]:80")).toBe("the endpoint fd00:ec2::254 is a cloud metadata address, refused even where private networks are allowed");
    expect(endpointRefusal("http://127.0.0.1:9000")).toBeUndefined();
    expect(endpointRefusal("http://10.0.0.5:9000")).toBeUndefined();
  });

  it("refuses at connection time a name that resolves to a private address (checked on every connection)", async () => {
    settings("hosted", false);
    const r = await testUpload(
      { endpoint: `https://${localName}:9`, region: "us-east-1", bucket: "b", forcePathStyle: true, accessKeyId: "k", secretAccessKey: "s" },
      null,
    );
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.failure.transient).toBe(false);
      expect(r.failure.message).toMatch(/not on the public internet/);
    }
  });
});

describe("classifyS3Error", () => {
  const c = { bucket: "b", region: "us-east-1", endpoint: "https://s3.example.com", secretAccessKey: "TOPSECRET" };
  const sdk = (name: string, status: number, message = "m") => Object.assign(new Error(message), { name, $metadata: { httpStatusCode: status } });
  it.each([
    [sdk("SlowDown", 503), true],
    [sdk("ServiceUnavailable", 503), true],
    [sdk("InternalError", 500), true],
    [sdk("TooManyRequests", 429), true],
    [sdk("RequestTimeout", 400), true],
    [Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }), true],
    [Object.assign(new Error("timed out"), { name: "TimeoutError" }), true],
    [sdk("InvalidAccessKeyId", 403), false],
    [sdk("SignatureDoesNotMatch", 403), false],
    [sdk("AccessDenied", 403), false],
    [sdk("NoSuchBucket", 404), false],
    [sdk("PermanentRedirect", 301), false],
    [sdk("AuthorizationHeaderMalformed", 400), false],
    [Object.assign(new Error("getaddrinfo ENOTFOUND x"), { code: "ENOTFOUND" }), false],
  ])("%s -> transient %s", (err, transient) => expect(classifyS3Error(err, c).transient).toBe(transient));

  it("never repeats the secret", () => {
    expect(classifyS3Error(sdk("AccessDenied", 403, "key TOPSECRET refused"), c).message).not.toContain("TOPSECRET");
  });
});
