/**
 * Data checked against a template's data schema on the server (docs/api.md, Data schemas): the
 * schema is applied in the sandbox process (lib/sandbox), under its per-step CPU and memory
 * limits, never in the web process or the worker. why: a schema's `pattern`, `patternProperties`
 * or `format: "regex"` is a regular expression of the caller's, and one that backtracks
 * catastrophically on a long string would block this process's event loop for every workspace
 * (docs/architecture.md, The template sandbox).
 */
import type { ErrorDetail } from "../errors";
import { checkSchemaInSandbox, type SandboxJob, type SchemaCheck } from "../sandbox";
import { dataMismatch, draftOf, schemaUnusable } from "./data-schema";

/**
 * Checks data against a template's data schema; 400 BAD_REQUEST listing every violation with its
 * dot-joined data path (up to 100), 400 LIMIT_EXCEEDED (`dataSchema`) when applying it passes the
 * sandbox's step limits. No schema: nothing to check, nothing sent.
 */
export async function checkTemplateData(schema: Record<string, unknown> | undefined, data: unknown): Promise<void> {
  const r = await dataViolations(schema, data);
  if (r.violations.length) throw dataMismatch(r.violations, r.more);
}

/**
 * Every violation of the data schema by the data, each with its dot-joined data path, as a value
 * rather than an error (the tool that checks data before a render says them all: lib/mcp). `more`:
 * there were more than the sandbox lists. 400 when the schema cannot be applied, LIMIT_EXCEEDED
 * past the sandbox's step limits, as checkTemplateData.
 */
export async function dataViolations(schema: Record<string, unknown> | undefined, data: unknown): Promise<{ violations: ErrorDetail[]; more: boolean }> {
  if (!schema) return { violations: [], more: false };
  const r = await checkSchemaInSandbox(schema, draftOf(schema) ?? "2020-12", data);
  if ("unusable" in r) throw schemaUnusable(r.unusable);
  return { violations: r.details, more: r.more };
}

/**
 * The check of `data` against a template's data schema as a part of the render's own sandbox job
 * (SandboxJob.check: one crossing, not two); undefined without a schema. refuseViolations then
 * answers what it found, as checkTemplateData would.
 */
export function schemaCheckOf(schema: Record<string, unknown> | undefined, data: unknown): SandboxJob["check"] {
  return schema ? { schema, draft: draftOf(schema) ?? "2020-12", data } : undefined;
}

/** Throws for a check that found violations (400 listing them) or could not be applied. */
export function refuseViolations(check: SchemaCheck | undefined): void {
  if (!check) return;
  if ("unusable" in check) throw schemaUnusable(check.unusable);
  if (check.details.length) throw dataMismatch(check.details, check.more);
}
