import { z } from "zod";

/**
 * Named definitions of the JSON Schemas Folio serves (`$defs`), id -> zod schema. Each is
 * registered in zod's global registry with a description and examples (typed as the schema's
 * output, so an example that no longer fits fails to compile). The editor's hover help and
 * completions, and any later OpenAPI document, so come from the zod schemas themselves.
 */
export const definitions: Record<string, z.ZodType> = {};

/** The schema registered under `id` with its description and examples. */
export function named<T extends z.ZodType>(schema: T, id: string, description: string, examples: z.output<T>[]): T {
  const s = schema.meta({ id, description, examples });
  definitions[id] = s;
  return s;
}
