/**
 * The S3 client of a storage destination, the endpoint rules (spec: Storage destination >
 * endpoint) and the test upload. Connections to a destination only reach public addresses unless
 * the installation allows private networks, and never cloud metadata or link-local ones (the rule
 * is lib/net/addresses.ts): the endpoint is checked when it is saved, and every connection checks
 * the addresses its host name resolves to (a name that later resolves to a private address fails
 * that upload).
 */
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { DeleteObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { config } from "../config";
import { unseal } from "../crypto";
import { invalidValue } from "../errors";
import { addressRefusal, hostOf, isIpLiteral, isLocalhostName, type NetworkPolicy } from "../net/addresses";
import { classifyS3Error, NOT_PUBLIC, type Classified } from "./classify";
import type { StorageDestinationRow } from "./repository";

/** What a client needs to reach a bucket; the secret in the clear, held only for the call. */
export type Connection = {
  endpoint: string | null;
  region: string;
  bucket: string;
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
};

/** The sealing purpose of destination secrets: a key of their own, so no other sealed token opens as one. */
export const SECRET_PURPOSE = "destination-secret";

/** Exported for the worker: the connection of a saved destination, or a reason it has none. */
export function connectionOf(r: StorageDestinationRow): Connection | undefined {
  const plain = unseal(SECRET_PURPOSE, r.secretAccessKeySealed);
  if (!plain) return undefined;
  return { endpoint: r.endpoint, region: r.region, bucket: r.bucket, forcePathStyle: r.forcePathStyle, accessKeyId: r.accessKeyId, secretAccessKey: plain.toString("utf8") };
}

/** spec: Limits > Self-hosted settings: private addresses and http only when the self-hosted installation allows them. */
export function privateNetworksAllowed(): boolean {
  const c = config();
  return c.DEPLOYMENT_MODE !== "hosted" && c.DESTINATION_ALLOW_PRIVATE_NETWORKS;
}


const networkPolicy = (): NetworkPolicy => ({ allowPrivate: privateNetworksAllowed() });

/** Why an address may not be reached under the policy, as "a loopback address"; undefined when it may. */
function refusedAs(address: string, policy: NetworkPolicy): string | undefined {
  const why = addressRefusal(address, policy);
  return why && (/^[aeiou]/.test(why) ? `an ${why} address` : `a ${why} address`);
}

/** The rule a refused address breaks, for messages. */
const ruleOf = (policy: NetworkPolicy) => (policy.allowPrivate ? "refused even where private networks are allowed" : "not on the public internet");

/**
 * dns.lookup that refuses host names resolving to any address the installation does not reach:
 * outside the public internet, or with private networks allowed, cloud metadata and link-local.
 */
const checkedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "", 4);
    const policy = networkPolicy();
    const bad = addresses.map((a) => ({ address: a.address, as: refusedAs(a.address, policy) })).find((a) => a.as);
    if (bad || addresses.length === 0) {
      const what = bad ? `${bad.address}, ${bad.as}` : "no address";
      const e = Object.assign(new Error(`${hostname} resolves to ${what}, which is ${ruleOf(policy)}`), { code: NOT_PUBLIC });
      return callback(e, "", 4);
    }
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

/**
 * A client for one destination, with connections of its own (destroy() closes them). The SDK's
 * own retries are off: the render's retries apply (spec: Errors > destination upload rules).
 */
export function s3Client(c: Connection, timeouts: { connectionMs: number; requestMs: number }): S3Client {
  const a = { http: new http.Agent({ keepAlive: true, lookup: checkedLookup }), https: new https.Agent({ keepAlive: true, lookup: checkedLookup }) };
  return new S3Client({
    region: c.region,
    endpoint: c.endpoint ?? undefined,
    forcePathStyle: c.forcePathStyle,
    credentials: { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey },
    maxAttempts: 1,
    // why: S3-compatible stores other than AWS often refuse the SDK's default CRC32 checksum headers.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    requestHandler: { httpAgent: a.http, httpsAgent: a.https, connectionTimeout: timeouts.connectionMs, requestTimeout: timeouts.requestMs },
  });
}

/**
 * Refuses an endpoint the installation does not allow (400 naming `endpoint`): not http(s),
 * credentials, query or fragment in it; cloud metadata and link-local addresses, and names
 * resolving to them, always; and unless private networks are allowed, http, localhost, and hosts
 * that are or resolve to addresses outside the public internet, or do not resolve.
 */
export async function assertAllowedEndpoint(endpoint: string): Promise<void> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw invalidValue("endpoint", "must be an http:// or https:// address");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw invalidValue("endpoint", "must be an http:// or https:// address");
  if (url.username || url.password) throw invalidValue("endpoint", "must not contain credentials; send accessKeyId and secretAccessKey");
  if (url.search || url.hash || endpoint.includes("#") || endpoint.includes("?")) throw invalidValue("endpoint", "must not have a query or fragment");
  const policy = networkPolicy();
  const why = config().DEPLOYMENT_MODE === "hosted" ? "on the hosted service" : "unless DESTINATION_ALLOW_PRIVATE_NETWORKS is true";
  if (!policy.allowPrivate && url.protocol !== "https:") throw invalidValue("endpoint", `must be an https:// address ${why}`);
  const host = hostOf(url);
  const refused = (what: string) =>
    invalidValue("endpoint", policy.allowPrivate ? `must not be a cloud metadata or link-local address, even where private networks are allowed; ${what}` : `must be on the public internet ${why}; ${what}`);
  if (isIpLiteral(host)) {
    const as = refusedAs(host, policy);
    if (as) throw refused(`${host} is ${as}`);
    return;
  }
  if (policy.allowPrivate) {
    // why: a name that does not resolve is left to the test upload, which names the cause; one that resolves to metadata is refused here.
    const addresses = await dns.promises.lookup(host, { all: true }).catch(() => []);
    const bad = addresses.map((x) => ({ address: x.address, as: refusedAs(x.address, policy) })).find((x) => x.as);
    if (bad) throw refused(`${host} resolves to ${bad.address}, ${bad.as}`);
    return;
  }
  if (isLocalhostName(host)) throw refused(`${host} is not`);
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch {
    throw invalidValue("endpoint", `host ${host} does not resolve`);
  }
  const bad = addresses.map((x) => ({ address: x.address, as: refusedAs(x.address, policy) })).find((x) => x.as);
  if (bad || addresses.length === 0) throw refused(`${host} resolves to ${bad ? `${bad.address}, ${bad.as}` : "no address"}`);
}

/**
 * Refuses at upload time a saved endpoint the installation no longer allows: an IP literal the
 * rule refuses (names are checked per connection), or http and localhost unless private networks
 * are allowed.
 */
export function endpointRefusal(endpoint: string | null): string | undefined {
  if (!endpoint) return undefined;
  const url = URL.parse(endpoint);
  if (!url) return "the endpoint is not a valid address";
  const policy = networkPolicy();
  const host = hostOf(url);
  if (isIpLiteral(host)) {
    const as = refusedAs(host, policy);
    if (as) return `the endpoint ${host} is ${as}, ${ruleOf(policy)}`;
  }
  if (policy.allowPrivate) return undefined;
  if (url.protocol !== "https:") return "the endpoint is not an https:// address, which this installation requires";
  if (isLocalhostName(host)) return `the endpoint ${host} is not on the public internet`;
  return undefined;
}

/** The object key of the test upload (spec: Storage destination > Test upload). */
export const testObjectKey = (prefix: string | null | undefined) => (prefix ? `${prefix}/.service-connection-test` : ".service-connection-test");

export type TestUploadResult = { ok: true; deleted: boolean } | { ok: false; failure: Classified };

/**
 * Writes `.service-connection-test` under the prefix, then deletes it. A failing write is the
 * result (with the store's reason); a failing delete is not (the key may lack delete permission,
 * which the spec allows: the object then stays).
 */
export async function testUpload(c: Connection, prefix: string | null | undefined): Promise<TestUploadResult> {
  const client = s3Client(c, { connectionMs: 5_000, requestMs: 15_000 });
  const Key = testObjectKey(prefix);
  try {
    try {
      await client.send(
        new PutObjectCommand({ Bucket: c.bucket, Key, Body: "Folio connection test: this object may be deleted.\n", ContentType: "text/plain" }),
        { abortSignal: AbortSignal.timeout(20_000) },
      );
    } catch (e) {
      return { ok: false, failure: classifyS3Error(e, c) };
    }
    try {
      await client.send(new DeleteObjectCommand({ Bucket: c.bucket, Key }), { abortSignal: AbortSignal.timeout(20_000) });
      return { ok: true, deleted: true };
    } catch {
      return { ok: true, deleted: false };
    }
  } finally {
    client.destroy();
  }
}
