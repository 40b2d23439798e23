// @ts-check
// A data schema's violations as a person reads them, from @cfworker/json-schema's errors: the one
// copy of these rules for both places that apply a schema. lib/templates/data-schema.ts imports
// this module (the console); lib/sandbox/host.mjs puts its text into the isolates' snapshot
// (violationsScript), where the server's checks run and nothing can be imported. Hence plain
// ES2022, no imports, and a single `export { ... }` statement at the end, which host.mjs replaces.

/** @typedef {{ keyword: string, keywordLocation: string, instanceLocation: string, error: string }} SchemaError */
/** @typedef {{ path?: string, message: string }} Violation */

// why captured now: in the isolate this runs when the snapshot is made, so each context keeps its
// own String even after a caller's code replaced the global one (as harness.js keeps toStr).
const toStr = String;

/** The most violations one answer lists (docs/api.md); past them, `more`. */
const MAX_VIOLATIONS = 100;
// Keywords that only say "something below failed"; the failures below are reported instead.
const WRAPPERS = new Set(["properties", "patternProperties", "additionalProperties", "unevaluatedProperties", "items", "prefixItems", "additionalItems", "unevaluatedItems", "$ref", "$dynamicRef", "$recursiveRef", "allOf", "dependentSchemas"]);
// Keywords whose subschemas are alternatives: their own error is the one to report, not each branch's.
const BRANCHES = new Set(["anyOf", "oneOf", "not", "contains", "if"]);

/**
 * "#/customer/a%20b/0" -> "customer.a b.0" (decisions.md: dot-joined, indexes as numbers).
 * @param {string} instanceLocation
 */
function dataPath(instanceLocation) {
  return toStr(instanceLocation)
    .replace(/^#\/?/, "")
    .split("/")
    .filter((s) => s !== "")
    .map((s) => {
      try {
        return decodeURIComponent(s).replace(/~1/g, "/").replace(/~0/g, "~");
      } catch {
        return s;
      }
    })
    .join(".");
}

/** @param {SchemaError} e */
function messageOf(e) {
  if (e.keyword === "false") return "is not allowed by the template's data schema";
  return toStr(e.error).replace(/^Instance /, "").replace(/\.$/, "");
}

/**
 * Whether an error is a leaf worth reporting: not a wrapper, not inside a failed alternative.
 * @param {SchemaError} e
 * @param {string[]} branches keyword locations of the alternatives, each ending in "/"
 */
function isLeaf(e, branches) {
  if (WRAPPERS.has(e.keyword)) return false;
  const at = toStr(e.keywordLocation);
  return !branches.some((b) => at.startsWith(b));
}

/**
 * The violations worth a person's attention: leaves, each path and message once, the first
 * MAX_VIOLATIONS of them (`more`: there were more). Errors that are all wrappers or branches still
 * say the data does not match; no errors, no violations.
 * @param {readonly SchemaError[]} errors
 * @returns {{ details: Violation[], more: boolean }}
 */
function schemaViolations(errors) {
  /** @type {string[]} */
  const branches = [];
  for (const e of errors) if (BRANCHES.has(e.keyword)) branches.push(`${e.keywordLocation}/`);
  /** @type {Violation[]} */
  const details = [];
  const seen = new Set();
  for (const e of errors) {
    if (!isLeaf(e, branches)) continue;
    const path = dataPath(e.instanceLocation);
    const message = messageOf(e);
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (details.length === MAX_VIOLATIONS) return { details, more: true };
    details.push(path ? { path, message } : { message });
  }
  if (errors.length && !details.length) details.push({ message: "does not match the template's data schema" });
  return { details, more: false };
}

export { schemaViolations };
