/**
 * String rendering (spec: Endpoints, POST /v1/renders/string; decisions.md): a Handlebars template
 * with data and partials, expanded in the sandbox (lib/sandbox) into HTML. No render record, no
 * webhook, nothing against an allowance (spec: What counts); only the usage record's stringRenders.
 */
import { z } from "zod";
import type { Ctx } from "../auth/context";
import { runSandbox } from "../sandbox";
import { countAnswer } from "../usage";
import { JsonObject } from "../documents/page-settings";
import { inFields, stringFieldOf } from "../templates/sandbox-fields";

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

/** What POST /v1/renders/string answers. */
export const StringRenderResult = z.object({ html: z.string() }).meta({ id: "StringRenderResult", description: "The HTML the template string rendered to." });

/**
 * Expands the template; answers `{html}`, counted once in the workspace's usage of the day. A syntax
 * error answers 400 naming "template" or "partial <name>" and the line, its `details[].path` the
 * field (`template`, `partials.<name>`); a step over the sandbox's limits LIMIT_EXCEEDED; neither is counted. `signal` (the request's) ends the step when the client
 * goes away.
 */
export async function renderString(ctx: Ctx, input: StringRenderInput, signal?: AbortSignal): Promise<z.infer<typeof StringRenderResult>> {
  const { outputs } = await inFields(runSandbox({ steps: [{ name: "template", source: input.template }], partials: input.partials, data: input.data ?? {} }, signal), stringFieldOf);
  await countAnswer(ctx, "stringRenders");
  return { html: outputs.template! };
}
