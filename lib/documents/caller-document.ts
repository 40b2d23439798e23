import { z } from "zod";
import { PageSettings } from "./page-settings";

/** Caller HTML (decisions.md: Renders > document). */
export const CallerDocument = z.strictObject({
  html: z.string().max(5_000_000),
  assetIds: z.array(z.string().min(1).max(128)).max(100).optional(),
  settings: PageSettings.optional(),
  header: z.string().max(100_000).optional(),
  footer: z.string().max(100_000).optional(),
});
export type CallerDocument = z.infer<typeof CallerDocument>;
