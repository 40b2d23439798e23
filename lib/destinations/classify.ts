/**
 * Object-store failures, classified as the spec's destination upload rules say (spec: Errors >
 * Destination upload failure rules): timeouts, dropped connections, throttling (429, SlowDown) and
 * 5xx answers are transient (retried with the render's retries); wrong keys, permissions, bucket,
 * region or an unknown host are final. The message names the cause, and the field behind it when
 * one is (for a failed test upload). Never the secret.
 */

/** Error code of a connection refused because its host resolved to an address the installation does not reach (s3.ts). */
export const NOT_PUBLIC = "EFOLIO_NOT_PUBLIC";

export type Classified = {
  transient: boolean;
  /** The cause in a sentence, e.g. "the bucket invoices does not exist (NoSuchBucket)". */
  message: string;
  /** The destination field to fix, when one is clearly at fault. */
  field?: "endpoint" | "region" | "bucket" | "accessKeyId" | "secretAccessKey";
};

type SdkError = Error & { Code?: string; code?: string; $metadata?: { httpStatusCode?: number }; $fault?: string; cause?: unknown };

const THROTTLING = new Set(["SlowDown", "Throttling", "ThrottlingException", "TooManyRequests", "TooManyRequestsException", "RequestLimitExceeded"]);
const DROPPED = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT", "ECONNABORTED", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENETDOWN", "EHOSTDOWN"]);
const CERTIFICATE = /^(CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|ERR_TLS_CERT_ALTNAME_INVALID|ERR_SSL_)/;

/** The store's own sentence, without anything that could be the secret. */
function storeSays(e: SdkError, secret: string): string {
  const m = (e.message || "").replace(/\s+/g, " ").trim().slice(0, 300);
  return secret && m.includes(secret) ? m.split(secret).join("***") : m;
}

/** A network error code, looking through the SDK's wrappers. */
function networkCode(e: unknown): string | undefined {
  for (let x: unknown = e, depth = 0; x && depth < 5; depth++) {
    const code = (x as { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Z_0-9]+$/.test(code)) return code;
    x = (x as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Classifies an error of an S3 call to the destination `c` (bucket, region and secret are used in the message and to keep the secret out). */
export function classifyS3Error(err: unknown, c: { bucket: string; region: string; endpoint: string | null; secretAccessKey: string }): Classified {
  const e = (err ?? {}) as SdkError;
  const code = e.Code ?? (e.name && e.name !== "Error" ? e.name : undefined);
  const status = e.$metadata?.httpStatusCode;
  const host = c.endpoint ? (URL.parse(c.endpoint)?.host ?? c.endpoint) : "the default object store";
  const says = (what: string) => {
    const s = storeSays(e, c.secretAccessKey);
    return s && s !== code ? `${what} (${code}: ${s})` : `${what}${code ? ` (${code})` : ""}`;
  };
  if (e.name === "TimeoutError" || e.name === "AbortError" || code === "RequestTimeout" || code === "RequestTimeoutException") {
    return { transient: true, message: `the object store at ${host} did not answer in time` };
  }
  const net = status === undefined ? networkCode(err) : undefined;
  if (net === "ENOTFOUND") return { transient: false, field: "endpoint", message: `the host of the object store does not resolve (${host})` };
  if (net === NOT_PUBLIC) return { transient: false, field: "endpoint", message: e.message || `${host} is not on the public internet` };
  if (net && CERTIFICATE.test(net)) return { transient: false, field: "endpoint", message: `the TLS certificate of ${host} is not trusted (${net})` };
  if (net && DROPPED.has(net)) return { transient: true, message: `the connection to the object store at ${host} failed (${net})` };
  switch (code) {
    case "InvalidAccessKeyId":
      return { transient: false, field: "accessKeyId", message: says("the object store does not know this access key ID") };
    case "SignatureDoesNotMatch":
      return { transient: false, field: "secretAccessKey", message: says("the secret access key does not match the access key ID") };
    case "AccessDenied":
    case "AllAccessDisabled":
    case "AccountProblem":
    case "InvalidObjectState":
      return { transient: false, field: "accessKeyId", message: says(`the key may not write objects to the bucket ${c.bucket}`) };
    case "NoSuchBucket":
      return { transient: false, field: "bucket", message: says(`the bucket ${c.bucket} does not exist`) };
    case "PermanentRedirect":
    case "AuthorizationHeaderMalformed":
    case "IllegalLocationConstraintException":
    case "InvalidRegion":
      return { transient: false, field: "region", message: says(`the bucket ${c.bucket} is not in the region ${c.region}`) };
  }
  if (status === 301 || status === 307) return { transient: false, field: "region", message: says(`the bucket ${c.bucket} is not in the region ${c.region}`) };
  if ((code && THROTTLING.has(code)) || status === 429) return { transient: true, message: says("the object store is throttling requests") };
  if (status !== undefined && status >= 500) return { transient: true, message: says(`the object store answered HTTP ${status}`) };
  if (status === 403) return { transient: false, field: "accessKeyId", message: says(`the object store refused the key (HTTP 403)`) };
  if (status === 404) return { transient: false, field: "bucket", message: says(`the object store answered HTTP 404 for the bucket ${c.bucket}`) };
  if (status !== undefined) return { transient: false, message: says(`the object store answered HTTP ${status}`) };
  if (net) return { transient: true, message: `the request to the object store at ${host} failed (${net})` };
  return { transient: true, message: says("the upload to the object store failed") };
}
