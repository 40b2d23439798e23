import { AppError, badRequest, invalidValue, joinPath } from "../errors";

export const MiB = 1024 * 1024;

/**
 * Reads a JSON body without ever holding more than `limit` bytes: Content-Length is checked before
 * reading, and a body without one is counted as it streams and cut off one byte past the limit.
 */
export async function readJsonBody(req: Request, limit: number): Promise<unknown> {
  const type = req.headers.get("content-type");
  if (!type || !/^application\/json\s*(;|$)/i.test(type.trim())) {
    throw new AppError("BAD_REQUEST", "The body must be sent as content-type: application/json", { status: 415 });
  }
  const length = req.headers.get("content-length");
  if (length !== null && Number(length) > limit) throw tooLarge(limit);
  const bytes = await readLimited(req, limit);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw badRequest("The body is not valid UTF-8");
  }
  if (text.trim() === "") throw badRequest("The body is empty; send a JSON object");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw badRequest(`The body is not valid JSON: ${(e as Error).message}`);
  }
  assertCleanStrings(value, []);
  return value;
}

/** True when the request carries a body at all (Content-Length above 0 or a chunked body). */
export function hasBody(req: Request): boolean {
  const length = req.headers.get("content-length");
  if (length !== null) return Number(length) > 0;
  return req.headers.has("transfer-encoding");
}

const tooLarge = (limit: number) =>
  new AppError("LIMIT_EXCEEDED", `The body is larger than this endpoint's limit of ${formatBytes(limit)}`, { status: 413 });

function formatBytes(n: number) {
  return n % MiB === 0 ? `${n / MiB} MiB` : `${n} bytes`;
}

async function readLimited(req: Request, limit: number): Promise<Uint8Array> {
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

/**
 * How deep a JSON body may nest. Generous for templates (50 component levels take about 110) and
 * shallow enough that every walk over the body, this one and the schema's, stays far off the stack limit.
 */
export const MAX_BODY_DEPTH = 256;

/**
 * spec: Errors > BAD_REQUEST: NUL characters and unpaired surrogates are refused, in keys and
 * values, and so is data nested too deep.
 */
function assertCleanStrings(value: unknown, path: (string | number)[]) {
  if (path.length > MAX_BODY_DEPTH) throw invalidValue(joinPath(path.slice(0, 8)) + ".…", `nests deeper than ${MAX_BODY_DEPTH} levels`);
  const check = (s: string) => {
    if (s.includes("\u0000")) throw invalidValue(joinPath(path) || "(body)", "contains a NUL character");
    if (!s.isWellFormed()) throw invalidValue(joinPath(path) || "(body)", "contains an unpaired surrogate");
  };
  // why: one shared path array, pushed and popped, keeps a walk over an 11 MiB body cheap.
  if (typeof value === "string") check(value);
  else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      assertCleanStrings(value[i], path);
      path.pop();
    }
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      path.push(k);
      check(k);
      assertCleanStrings(v, path);
      path.pop();
    }
  }
}
