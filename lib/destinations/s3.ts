/**
 * The S3 client of a storage destination, the endpoint rules (spec: Storage destination >
 * endpoint) and the test upload. Connections to a destination only reach public addresses unless
 * the installation allows private networks: the endpoint is checked when it is saved, and every
 * connection checks the addresses its host name resolves to (a name that later resolves to a
 * private address fails that upload).
 */
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { DeleteObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { config } from "../config";
import { invalidValue } from "../errors";
import { isIpLiteral, isPublicAddress, NOT_PUBLIC } from "./addresses";
import { classifyS3Error, type Classified } from "./classify";

/** What a client needs to reach a bucket; the secret in the clear, held only for the call. */
export type Connection = {
  endpoint: string | null;
  region: string;
  bucket: string;
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
};

/** spec: Limits > Self-hosted settings: private addresses and http only when the self-hosted installation allows them. */
export function privateNetworksAllowed(): boolean {
  const c = config();
  return c.DEPLOYMENT_MODE !== "hosted" && c.DESTINATION_ALLOW_PRIVATE_NETWORKS;
}


/** dns.lookup that refuses host names resolving to any address outside the public internet. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "", 4);
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad || addresses.length === 0) {
      const e = Object.assign(new Error(`${hostname} resolves to ${bad?.address ?? "no address"}, which is not on the public internet`), { code: NOT_PUBLIC });
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
  const lookup = privateNetworksAllowed() ? undefined : publicOnlyLookup;
  const a = { http: new http.Agent({ keepAlive: true, lookup }), https: new https.Agent({ keepAlive: true, lookup }) };
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
 * credentials, query or fragment in it; and unless private networks are allowed, http, localhost,
 * and hosts that are or resolve to addresses outside the public internet, or do not resolve.
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
  if (privateNetworksAllowed()) return;
  const why = config().DEPLOYMENT_MODE === "hosted" ? "on the hosted service" : "unless DESTINATION_ALLOW_PRIVATE_NETWORKS is true";
  if (url.protocol !== "https:") throw invalidValue("endpoint", `must be an https:// address ${why}`);
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) throw invalidValue("endpoint", `must be on the public internet ${why}; ${host} is not`);
  if (isIpLiteral(host)) {
    if (!isPublicAddress(host)) throw invalidValue("endpoint", `must be on the public internet ${why}; ${host} is not a public address`);
    return;
  }
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch {
    throw invalidValue("endpoint", `host ${host} does not resolve`);
  }
  const bad = addresses.find((x) => !isPublicAddress(x.address));
  if (bad || addresses.length === 0) throw invalidValue("endpoint", `must be on the public internet ${why}; ${host} resolves to ${bad?.address ?? "no address"}`);
}

/** Refuses at upload time a saved endpoint that is an IP literal outside the public internet (names are checked per connection). */
export function endpointRefusal(endpoint: string | null): string | undefined {
  if (!endpoint || privateNetworksAllowed()) return undefined;
  const url = URL.parse(endpoint);
  if (!url) return "the endpoint is not a valid address";
  if (url.protocol !== "https:") return "the endpoint is not an https:// address, which this installation requires";
  const host = url.hostname;
  if (host === "localhost" || host.endsWith(".localhost")) return `the endpoint ${host} is not on the public internet`;
  if (isIpLiteral(host) && !isPublicAddress(host)) return `the endpoint ${host} is not on the public internet`;
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
