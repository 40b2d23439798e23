/**
 * A template's data schema (issue 25, docs/api.md "Data schemas"): a JSON Schema the caller's data
 * is checked against before a render, preview or report expands anything. Checked at save (size,
 * a draft the interpreter supports, local references only), applied by @cfworker/json-schema, an
 * interpreter: no code is generated from a caller's schema, so a schema cannot run anything.
 * Pure: the console imports it. The server applies schemas to data in the sandbox (data-check.ts):
 * a schema's regular expressions are the caller's code, and may backtrack without end.
 */
import { Validator, type OutputUnit, type Schema, type SchemaDraft } from "@cfworker/json-schema";
import { z } from "zod";
import { AppError, type ErrorDetail } from "../errors";
import { schemaViolations } from "../sandbox/violations.js";
import { MAX_DATA_ERRORS } from "./data-errors";

export const DATA_SCHEMA_LIMITS = { bytes: 100_000, depth: 32 } as const;

/** The drafts the interpreter supports, by their meta-schema URI (with or without the empty fragment). */
const DRAFTS: Record<string, SchemaDraft> = {
  "http://json-schema.org/draft-04/schema": "4",
  "http://json-schema.org/draft-07/schema": "7",
  "https://json-schema.org/draft/2019-09/schema": "2019-09",
  "https://json-schema.org/draft/2020-12/schema": "2020-12",
};
const DEFAULT_DRAFT: SchemaDraft = "2020-12";

/** The schema's draft from its $schema (2020-12 when absent); undefined for one not supported. */
export function draftOf(schema: unknown): SchemaDraft | undefined {
  if (typeof schema !== "object" || schema === null || !("$schema" in schema)) return DEFAULT_DRAFT;
  const uri = (schema as { $schema: unknown }).$schema;
  return typeof uri === "string" ? DRAFTS[uri.replace(/#$/, "")] : undefined;
}

// Keywords whose value is a schema, an array of schemas, or a map of names to schemas (every draft's).
const ONE = ["additionalItems", "unevaluatedItems", "items", "contains", "additionalProperties", "unevaluatedProperties", "propertyNames", "not", "if", "then", "else"];
const MANY = ["prefixItems", "items", "allOf", "anyOf", "oneOf"];
const MAP = ["$defs", "definitions", "properties", "patternProperties", "dependentSchemas"];
const REFS = ["$ref", "$dynamicRef", "$recursiveRef"];
const TYPES = new Set(["array", "boolean", "integer", "null", "number", "object", "string"]);

type Issue = { path: (string | number)[]; message: string };

/** Follows a JSON pointer fragment ("#/$defs/line") from the root; undefined when it leads nowhere. */
function resolvePointer(root: unknown, fragment: string): unknown {
  if (fragment === "#" || fragment === "#/") return root;
  let node: unknown = root;
  for (const raw of fragment.slice(2).split("/")) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * What is wrong with a schema, with the path of each problem inside it: a subschema that is not an
 * object or boolean, a reference that leaves the schema (no remote $ref: only "#..." fragments,
 * and a pointer must lead somewhere), $id below the root, a pattern that is not a regular
 * expression, an unknown type name, nesting past DATA_SCHEMA_LIMITS.depth. Then one trial run:
 * a schema the interpreter cannot apply (a reference loop that consumes no data) is refused.
 */
export function schemaIssues(schema: unknown): Issue[] {
  const issues: Issue[] = [];
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return [{ path: [], message: "must be a JSON Schema object" }];
  if (!draftOf(schema)) {
    return [{ path: ["$schema"], message: `names a draft this service does not apply; use one of ${Object.keys(DRAFTS).join(", ")} (or leave $schema out for 2020-12)` }];
  }
  const anchors = new Set<string>();
  const refs: { path: (string | number)[]; ref: string }[] = [];
  const stack: { node: unknown; path: (string | number)[]; depth: number }[] = [{ node: schema, path: [], depth: 1 }];
  while (stack.length && issues.length < MAX_DATA_ERRORS) {
    const { node, path, depth } = stack.pop()!;
    if (typeof node === "boolean") continue;
    if (typeof node !== "object" || node === null || Array.isArray(node)) {
      issues.push({ path, message: "must be a schema (an object or a boolean)" });
      continue;
    }
    if (depth > DATA_SCHEMA_LIMITS.depth) {
      issues.push({ path, message: `nests deeper than ${DATA_SCHEMA_LIMITS.depth} schemas` });
      continue;
    }
    const s = node as Record<string, unknown>;
    for (const k of REFS) {
      if (s[k] === undefined) continue;
      if (typeof s[k] !== "string" || !s[k].startsWith("#")) issues.push({ path: [...path, k], message: "must be a reference inside the schema (#/$defs/… or #anchor); remote references are refused" });
      else refs.push({ path: [...path, k], ref: s[k] });
    }
    if (s.$id !== undefined && path.length > 0) issues.push({ path: [...path, "$id"], message: "is allowed only at the schema's root" });
    for (const k of ["$anchor", "$dynamicAnchor"]) if (typeof s[k] === "string") anchors.add(s[k]);
    if (s.pattern !== undefined) checkPattern(s.pattern, [...path, "pattern"], issues);
    if (s.type !== undefined) {
      const types = Array.isArray(s.type) ? s.type : [s.type];
      if (types.length === 0 || types.some((t) => typeof t !== "string" || !TYPES.has(t))) issues.push({ path: [...path, "type"], message: `must name types among ${[...TYPES].join(", ")}` });
    }
    if (s.required !== undefined && (!Array.isArray(s.required) || s.required.some((r) => typeof r !== "string"))) issues.push({ path: [...path, "required"], message: "must be an array of property names" });
    for (const k of ONE) if (s[k] !== undefined && !Array.isArray(s[k])) stack.push({ node: s[k], path: [...path, k], depth: depth + 1 });
    for (const k of MANY) {
      if (!Array.isArray(s[k])) continue;
      (s[k] as unknown[]).forEach((sub, i) => stack.push({ node: sub, path: [...path, k, i], depth: depth + 1 }));
    }
    for (const k of MAP) {
      if (s[k] === undefined) continue;
      if (typeof s[k] !== "object" || s[k] === null || Array.isArray(s[k])) {
        issues.push({ path: [...path, k], message: "must be an object of schemas" });
        continue;
      }
      for (const [name, sub] of Object.entries(s[k])) {
        if (k === "patternProperties") checkPattern(name, [...path, k, name], issues);
        stack.push({ node: sub, path: [...path, k, name], depth: depth + 1 });
      }
    }
  }
  for (const { path, ref } of refs) {
    const found = ref.startsWith("#/") || ref === "#" ? resolvePointer(schema, ref) !== undefined : anchors.has(ref.slice(1));
    if (!found) issues.push({ path, message: `refers to ${ref}, which is not in the schema` });
  }
  if (issues.length === 0) {
    try {
      // why without patterns: the trial runs in this process, and a pattern can backtrack for long
      // even on "" ("(?:|)" repeated); what it looks for is a loop of references, which needs none.
      const trialSchema = withoutPatterns(schema);
      for (const trial of [{}, [], "", 0, null]) new Validator(trialSchema as Schema, draftOf(schema), false).validate(trial);
    } catch (e) {
      const loop = e instanceof RangeError;
      issues.push({ path: [], message: loop ? "cannot be applied: a reference loops without reading any data" : `cannot be applied: ${(e as Error).message.split("\n")[0]}` });
    }
  }
  return issues.slice(0, MAX_DATA_ERRORS);
}

/**
 * A copy of the schema without any string-valued "pattern" key, wherever it is (a `const` holding
 * one changes too, which a trial for reference loops does not mind). The trial values hold no
 * property name and no string but "", so patternProperties, propertyNames and format "regex" match
 * nothing long; `pattern` was the only regular expression a trial could run.
 */
function withoutPatterns(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema), (key, value) => (value && typeof value === "object" && !Array.isArray(value) && typeof value.pattern === "string" ? (({ pattern: _drop, ...rest }) => rest)(value) : value));
}

function checkPattern(p: unknown, path: (string | number)[], issues: Issue[]) {
  try {
    if (typeof p !== "string") throw new Error("not a string");
    new RegExp(p, "u");
  } catch {
    issues.push({ path, message: "is not a regular expression" });
  }
}

/** The `dataSchema` of a template's content, checked at save: an object within DATA_SCHEMA_LIMITS.bytes, applicable. */
export const DataSchema = z
  .record(z.string(), z.unknown())
  .superRefine((s, ctx) => {
    const bytes = new TextEncoder().encode(JSON.stringify(s)).length;
    if (bytes > DATA_SCHEMA_LIMITS.bytes) {
      ctx.addIssue({ code: "custom", message: `is ${bytes.toLocaleString("en-US")} bytes; a data schema may have at most ${DATA_SCHEMA_LIMITS.bytes.toLocaleString("en-US")}` });
      return;
    }
    for (const i of schemaIssues(s)) ctx.addIssue({ code: "custom", path: i.path, message: i.message });
  })
  .meta({
    description:
      "A JSON Schema (draft 2020-12 unless $schema names 2019-09, 07 or 04; up to 100,000 bytes; references only inside it) of the data. Renders, previews and the Reports API check the data against it first and answer 400 with every violation's path.",
  });

/**
 * The violations worth a person's attention, the first 100 (`more`: there were more): the rules of
 * lib/sandbox/violations.js, which the sandbox's isolates run too, so both say the same.
 */
export function violations(errors: OutputUnit[]): { details: ErrorDetail[]; more: boolean } {
  return schemaViolations(errors);
}

/**
 * The 400 for data that does not match: every violation with its dot-joined data path, the first
 * MAX_DATA_ERRORS of them (`more`: there were more).
 */
export function dataMismatch(details: ErrorDetail[], more: boolean): AppError {
  const shown = details.slice(0, MAX_DATA_ERRORS);
  const first = shown[0] ?? { message: "does not match the template's data schema" };
  const over = more || details.length > MAX_DATA_ERRORS;
  const head = over ? `More than ${MAX_DATA_ERRORS} values` : shown.length === 1 ? "1 value" : `${shown.length} values`;
  return new AppError("BAD_REQUEST", `The data does not match the template's data schema: ${head} (the first: ${first.path ?? "the data"} ${first.message}); details list ${over ? `the first ${MAX_DATA_ERRORS}` : "each"} by path`, { details: shown.length ? shown : [first] });
}

/** The 400 for a schema the interpreter cannot apply to this data. */
export const schemaUnusable = (why: string) => new AppError("BAD_REQUEST", `The template's data schema cannot be applied to this data: ${why}`);

/**
 * Checks data against a template's data schema IN THIS PROCESS; 400 BAD_REQUEST listing every
 * violation with its dot-joined data path (up to MAX_DATA_ERRORS). No schema: nothing to check.
 * why the server never calls it: a schema's regular expression may backtrack for as long as its
 * author likes; the server applies schemas in the sandbox (lib/templates/data-check.ts).
 */
export function checkData(schema: Record<string, unknown> | undefined, data: unknown): void {
  if (!schema) return;
  let errors: OutputUnit[];
  try {
    errors = new Validator(schema as Schema, draftOf(schema) ?? DEFAULT_DRAFT, false).validate(data).errors;
  } catch (e) {
    // why: saves refuse schemas that fail on trial data; data that reaches a loop the trials missed lands here.
    throw schemaUnusable(e instanceof RangeError ? "its references loop without reading the data" : (e as Error).message.split("\n")[0]!);
  }
  if (errors.length === 0) return;
  const { details, more } = violations(errors);
  throw dataMismatch(details, more);
}
