/**
 * String rendering (spec: Endpoints, POST /v1/renders/string; decisions.md): a Handlebars template
 * with data and partials, expanded in the sandbox (lib/sandbox) into HTML. No render record, no
 * usage, no webhook: nothing is stored and nothing is counted.
 */
import { z } from "zod";
import { runSandbox } from "../sandbox";
import { JsonObject } from "../documents/page-settings";

/** Partials as a Handlebars template's may hold them (issue 25: at most 200, names up to 255 characters). */
export const StringRenderInput = z.strictObject({
  template: z.string(),
  data: JsonObject.optional(),
  partials: z
    .record(z.string().min(1).max(255), z.string())
    .refine((p) => Object.keys(p).length <= 200, { message: "at most 200 partials" })
    .optional(),
});
export type StringRenderInput = z.infer<typeof StringRenderInput>;

/**
 * Expands the template; answers `{html}`. A syntax error answers 400 naming "template" or
 * "partial <name>" and the line; a step over the sandbox's limits LIMIT_EXCEEDED. `signal` (the
 * request's) ends the step when the client goes away.
 */
/** What POST /v1/renders/string answers. */
export const StringRenderResult = z.object({ html: z.string() }).meta({ id: "StringRenderResult", description: "The HTML the template string rendered to." });

export async function renderString(input: StringRenderInput, signal?: AbortSignal): Promise<z.infer<typeof StringRenderResult>> {
  const { outputs } = await runSandbox({ steps: [{ name: "template", source: input.template }], partials: input.partials, data: input.data ?? {} }, signal);
  return { html: outputs.template! };
}
