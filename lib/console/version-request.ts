// The ready request the version list shows for a published version: POST /v1/renders with its
// templateVersionId and the editor's sample data. Pure: the browser imports it, and the journey runs the
// very same JSON against the API.
import { KEY_VARIABLE } from "./hello-curl";

/** The body of POST /v1/renders that renders version `templateVersionId` with `data`. */
export function versionRenderBody(templateVersionId: string, data: Record<string, unknown>): string {
  return JSON.stringify({ templateVersionId, data });
}

/** A POSIX shell word in single quotes: each ' becomes '\'' so any data survives the shell as written. */
const shellQuote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * `curl` rendering the version with the data, reading the key from $FOLIO_API_KEY. A key with only
 * render:create (the "Render only" preset) is enough: rendering a published version by its id reads no
 * template (spec: Authentication > Scopes).
 */
export function versionRenderCommand(publicUrl: string, templateVersionId: string, data: Record<string, unknown>): string {
  const base = publicUrl.replace(/\/+$/, "");
  return [
    `curl -X POST ${base}/v1/renders \\`,
    `  -H "x-api-key: $${KEY_VARIABLE}" \\`,
    `  -H "content-type: application/json" \\`,
    `  -d ${shellQuote(versionRenderBody(templateVersionId, data))}`,
  ].join("\n");
}

/**
 * `curl` fetching a workbook template's XLSX through the Reports API, which renders the newest
 * published version by name (a workbook template makes no render: POST /v1/renders answers 404).
 * The key needs render:create and template:read; the file is written under the template's name.
 */
export function reportXlsxCommand(publicUrl: string, name: string, data: Record<string, unknown>): string {
  const base = publicUrl.replace(/\/+$/, "");
  const file = `${name.replace(/[^\w.-]+/g, "_")}.xlsx`;
  return [
    `curl -X POST ${base}/v1/reports/render \\`,
    `  -H "x-api-key: $${KEY_VARIABLE}" \\`,
    `  -H "content-type: application/json" \\`,
    `  -d ${shellQuote(JSON.stringify({ format: "xlsx", template: { name }, data }))} \\`,
    `  -o ${shellQuote(file)}`,
  ].join("\n");
}
