/**
 * Workbook templates in the web process (docs/api.md, "Workbook templates"): the uploaded workbook's
 * bytes read from the file store, its placeholders planned and the filled file written in the
 * workbook helpers (lib/offload: contained processes, fair turns by workspace, time and heap
 * bounds), the values computed in the sandbox between the two. Nothing of the caller's workbook is
 * parsed on this event loop.
 */
import crypto from "node:crypto";
import type { AssetRef } from "../documents/asset-refs";
import { AppError, limitExceeded } from "../errors";
import { bytesOf, fileStore } from "../files/store";
import { HelperPool } from "../offload/pool";
import { isHelperJobError, isHelperLimitError, isPoolBusyError } from "../processes/pool";
import { currentTenant } from "../processes/tenant";
import type { FillImage, WorkbookPlan } from "./fill";
import { workbookValues, type WorkbookCode } from "./values";
import type { SandboxConsoleEntry } from "../sandbox";

export type { WorkbookPlan } from "./fill";
export type { WorkbookCode } from "./values";

/** A workbook helper's heap: the template inflated (at most 100 MB, WORKBOOK_LIMITS) and the written file's compressed pieces. */
export const WORKBOOK_HELPER_MEMORY_MB = 512;
/** A plan or a fill that takes longer is refused (a 10,000-row report fills in well under a second). */
export const WORKBOOK_TIMEOUT_MS = 30_000;

let pool: HelperPool | undefined;
const helpers = () => (pool ??= new HelperPool({ name: "workbooks", preload: ["planWorkbook", "fillWorkbook"], warmHelpers: 1, maxHelpers: 2, memoryMb: WORKBOOK_HELPER_MEMORY_MB, timeoutMs: WORKBOOK_TIMEOUT_MS }));

/** A helper's failure as the caller's error: the workbook's own fault 400, a limit 400 LIMIT_EXCEEDED, a full pool 429. */
function helperError(e: unknown): unknown {
  if (isHelperJobError(e) && e.remoteName === "WorkbookError") return new AppError("BAD_REQUEST", e.message);
  if (isHelperLimitError(e)) return limitExceeded(`The workbook could not be filled within ${WORKBOOK_TIMEOUT_MS / 1000} s and ${WORKBOOK_HELPER_MEMORY_MB} MiB`);
  if (isPoolBusyError(e)) return new AppError("RATE_LIMITED", e.message, { headers: { "retry-after": String(e.retryAfterSeconds ?? 1) } });
  return e;
}

async function inHelper<T>(job: string, args: unknown[]): Promise<T> {
  try {
    return await helpers().run<T>(job, args, { tenant: currentTenant() });
  } catch (e) {
    throw helperError(e);
  }
}

/** Plans by the workbook's checksum: a template's workbook is planned once while it stays in use. */
const plans = new Map<string, WorkbookPlan>();
const KEEP_PLANS = 200;

/** A kept plan, made the most recently used. */
function keptPlan(sha256: string): WorkbookPlan | undefined {
  const hit = plans.get(sha256);
  if (hit) {
    plans.delete(sha256);
    plans.set(sha256, hit);
  }
  return hit;
}

/** The placeholders of a workbook (cached by its sha256). Throws 400 BAD_REQUEST for a file that is not a usable workbook. */
export async function planOf(bytes: Uint8Array, sha256: string): Promise<WorkbookPlan> {
  const hit = keptPlan(sha256);
  if (hit) return hit;
  const plan = await inHelper<WorkbookPlan>("planWorkbook", [bytes]);
  plans.set(sha256, plan);
  if (plans.size > KEEP_PLANS) plans.delete(plans.keys().next().value as string);
  return plan;
}

/** A workbook asset's bytes from the file store, checked against its checksum. */
export async function workbookBytes(ref: AssetRef): Promise<Uint8Array> {
  const file = await fileStore().get(ref.key);
  if (!file) throw new AppError("ASSET_INVALID", `The workbook ${ref.label} is no longer stored`);
  const bytes = await bytesOf(file.body);
  if (crypto.createHash("sha256").update(bytes).digest("hex") !== ref.sha256) throw new AppError("ASSET_INVALID", `The workbook ${ref.label} does not match its checksum: the stored file is damaged`);
  return bytes;
}

/**
 * The filled workbook: `data` (already shaped: content fields, checked against the data schema)
 * through the template's code in the sandbox, then written into the workbook.
 */
export async function fillWorkbookFile(ref: AssetRef, code: WorkbookCode, data: unknown, images: AssetRef[] = []): Promise<{ bytes: Uint8Array; console: SandboxConsoleEntry[] }> {
  const bytes = await workbookBytes(ref);
  const plan = await planOf(bytes, ref.sha256);
  const { values, console } = await workbookValues(plan, code, data);
  // The images the values place (only those: a template may name many), read and checked as the workbook is.
  const placed = new Set(Object.values(values).flatMap((v) => [...v.matchAll(/folio-image:(ast_[0-9A-Za-z]{8,64})/g)].map((m) => m[1]!)));
  const loaded: Record<string, FillImage> = {};
  for (const r of images) if (placed.has(r.name)) loaded[r.name] = { bytes: await workbookBytes(r), mediaType: r.mediaType };
  const filled = await inHelper<Uint8Array>("fillWorkbook", [bytes, plan, values, loaded]);
  return { bytes: filled, console };
}

/** The placeholders of a stored workbook: its plan kept by checksum, else read from the store and planned. */
export async function placeholdersOf(ref: AssetRef): Promise<WorkbookPlan> {
  return keptPlan(ref.sha256) ?? planOf(await workbookBytes(ref), ref.sha256);
}
