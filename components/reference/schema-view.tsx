// How a JSON Schema of the OpenAPI document reads in the console's API reference: a type in a few
// words (a named schema links to its entry), and an object's fields as a table.
import { Fragment, type ReactNode } from "react";

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  description?: string;
  default?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
};

/** The id of a named schema's entry on the page. */
export const schemaAnchor = (name: string) => `schema-${name}`;
const refName = (ref: string) => decodeURIComponent(ref.split("/").pop() ?? ref);

function bounds(s: JsonSchema): string {
  const parts: string[] = [];
  if (s.minLength !== undefined || s.maxLength !== undefined) parts.push(`${s.minLength ?? 0} to ${s.maxLength ?? "any"} characters`);
  // why: zod gives every integer the safe-integer bounds, which say nothing to a reader.
  const [min, max] = [s.minimum, s.maximum].map((n) => (n !== undefined && Math.abs(n) >= Number.MAX_SAFE_INTEGER ? undefined : n));
  if (min !== undefined || max !== undefined) parts.push(`${min ?? "any"} to ${max ?? "any"}`);
  if (s.minItems !== undefined || s.maxItems !== undefined) parts.push(`${s.minItems ?? 0} to ${s.maxItems ?? "any"} items`);
  if (s.format) parts.push(s.format);
  return parts.length ? ` (${parts.join(", ")})` : "";
}

/** A schema's type in a few words, named schemas as links. */
export function TypeLabel({ schema }: { schema: JsonSchema | undefined }): ReactNode {
  if (!schema) return "any";
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return (
      <a href={`#${schemaAnchor(name)}`} className="font-medium text-accent hover:underline">
        {name}
      </a>
    );
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    return alternatives.map((a, i) => (
      <Fragment key={i}>
        {i > 0 && " or "}
        <TypeLabel schema={a} />
      </Fragment>
    ));
  }
  if (schema.allOf?.length === 1) return <TypeLabel schema={schema.allOf[0]} />;
  if (schema.const !== undefined) return <code className="font-mono text-xs">{JSON.stringify(schema.const)}</code>;
  if (schema.enum) return <span className="font-mono text-xs break-words">{schema.enum.map((v) => JSON.stringify(v)).join(" | ")}</span>;
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : schema.type;
  if (type === "array") {
    return (
      <>
        array of <TypeLabel schema={schema.items} />
        {bounds(schema)}
      </>
    );
  }
  if (type === "object" && !schema.properties && typeof schema.additionalProperties === "object") {
    return (
      <>
        map of <TypeLabel schema={schema.additionalProperties} />
      </>
    );
  }
  return `${type ?? "any"}${bounds(schema)}`;
}

/** An object's fields as a table (one level: nested objects show their own fields below them); any other schema as its type. */
export function SchemaView({ schema, depth = 0 }: { schema: JsonSchema; depth?: number }) {
  if (!schema.properties) {
    return (
      <p className="text-sm text-gray-700">
        <TypeLabel schema={schema} />
        {schema.description && <span className="text-gray-600"> · {schema.description}</span>}
      </p>
    );
  }
  const required = new Set(schema.required ?? []);
  // why focusable: a narrow window scrolls the table sideways, and keyboard users must reach that too.
  return (
    <div className="overflow-x-auto" tabIndex={0} role="group" aria-label="Fields">
      <table className="w-full min-w-[32rem] text-left text-sm">
        <thead>
          <tr className="border-b border-gray-200 text-xs text-gray-600">
            <th scope="col" className="py-1.5 pr-3 font-medium">
              Field
            </th>
            <th scope="col" className="py-1.5 pr-3 font-medium">
              Type
            </th>
            <th scope="col" className="py-1.5 font-medium">
              About
            </th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(schema.properties).map(([name, field]) => (
            <tr key={name} className="border-b border-gray-100 align-top">
              <td className="py-1.5 pr-3">
                <code className="font-mono text-xs break-words text-gray-900">{name}</code>
                {required.has(name) && <span className="ml-1 text-xs text-gray-600">required</span>}
              </td>
              <td className="py-1.5 pr-3 text-gray-800">
                <TypeLabel schema={field} />
              </td>
              <td className="py-1.5 text-gray-700">
                {field.description}
                {field.default !== undefined && <span className="block text-xs text-gray-600">Default {JSON.stringify(field.default)}</span>}
                {depth < 1 && field.properties && (
                  <div className="mt-1.5">
                    <SchemaView schema={field} depth={depth + 1} />
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
