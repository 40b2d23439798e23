// useTabSchemas: the JSON Schemas the editor's JSON tabs validate against, derived from the one the
// API serves (GET /v1/templates/schema, same origin, with the session): composition.json holds
// only root, and page settings are the content's settings.
"use client";
import type { JSONSchema7 } from "json-schema";
import { useEffect, useState } from "react";

export type TabSchemas = { composition: JSONSchema7; settings: JSONSchema7; contentFields: JSONSchema7 };

type Schema = JSONSchema7 & { $defs?: Record<string, JSONSchema7> };

/** A subschema with its $ref followed (one level: the definitions are named, not nested refs). */
function resolve(root: Schema, s: JSONSchema7 | undefined): JSONSchema7 | undefined {
  if (!s?.$ref) return s;
  const name = s.$ref.replace(/^#\/(\$defs|definitions)\//, "");
  return root.$defs?.[name] ?? (root.definitions?.[name] as JSONSchema7 | undefined);
}

/**
 * The schema as draft 04/07 validators read it: `$defs` as `definitions`. why: codemirror-json-schema
 * validates with json-schema-library's Draft04, which resolves `#/definitions/…` only and knows no `const`.
 */
function asDefinitions(s: Schema): Schema {
  // `const` (draft 06) becomes a one-value `enum`, which Draft04 checks: the component types are told apart by it.
  const text = JSON.stringify(s, (key, value: unknown) => {
    if (value && typeof value === "object" && !Array.isArray(value) && "const" in value) {
      const { const: only, ...other } = value as Record<string, unknown>;
      return { ...other, enum: [only] };
    }
    return value;
  }).replaceAll('"#/$defs/', '"#/definitions/');
  const { $defs, $schema: _s, ...rest } = JSON.parse(text) as Schema;
  return { ...rest, definitions: { ...(rest.definitions ?? {}), ...($defs ?? {}) } } as Schema;
}

/** Pure: the tab schemas of the content schema. */
export function tabSchemas(served: Schema): TabSchemas {
  const content = asDefinitions(served);
  const props = resolve(content, content)?.properties ?? {};
  const composition = resolve(content, props.composition as JSONSchema7) ?? {};
  const root = composition.properties?.root as JSONSchema7 | undefined;
  const shared = { definitions: content.definitions } as Schema;
  return {
    composition: { ...shared, type: "object", properties: { root: root ?? {} }, required: ["root"], additionalProperties: false },
    settings: { ...shared, ...(resolve(content, props.settings as JSONSchema7) ?? {}) },
    contentFields: { ...shared, ...(resolve(content, props.contentFields as JSONSchema7) ?? {}) },
  };
}

/**
 * A template's data schema as the sample data editor checks and completes with it; undefined while
 * its text is empty or not a JSON object. Pure.
 */
export function dataSchemaForEditor(text: string): JSONSchema7 | undefined {
  if (text.trim() === "") return undefined;
  try {
    const s: unknown = JSON.parse(text);
    return s && typeof s === "object" && !Array.isArray(s) ? asDefinitions(s as Schema) : undefined;
  } catch {
    return undefined;
  }
}

let loading: Promise<TabSchemas | null> | undefined;

export function useTabSchemas(): TabSchemas | null {
  const [schemas, setSchemas] = useState<TabSchemas | null>(null);
  useEffect(() => {
    loading ??= fetch("/v1/templates/schema")
      .then((r) => (r.ok ? (r.json() as Promise<Schema>) : null))
      .then((s) => (s ? tabSchemas(s) : null))
      .catch(() => null);
    let live = true;
    void loading.then((s) => {
      if (!s) loading = undefined; // try again next time
      if (live) setSchemas(s);
    });
    return () => {
      live = false;
    };
  }, []);
  return schemas;
}
