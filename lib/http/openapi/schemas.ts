import { z } from "zod";
import { errorCodes, type ErrorCode } from "../../errors";

/** The error envelope every error answers (lib/http/errors.ts builds it; spec: Errors). */
export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]]).meta({ description: "What went wrong, for programs to branch on (spec: Errors)." }),
      message: z.string().meta({ description: "What went wrong, for people: names the bad value and what would be right." }),
      retryable: z.boolean().meta({ description: "Whether the same request may succeed later (429, 503, RENDER_TIMEOUT)." }),
      details: z
        .array(z.object({ path: z.string().optional().meta({ description: "Where: body fields dot-joined (items.3.data), or query.x, params.x, headers.x" }), message: z.string() }))
        .optional()
        .meta({ description: "Every bad value of the request, one by one." }),
      renderId: z.string().optional().meta({ description: "The render a render failure belongs to (a waited-for render that failed or timed out)." }),
      current: z.record(z.string(), z.unknown()).optional().meta({ description: "A conflict's view of the resource as it is now (a stale draft: its revision and who saved it)." }),
    }),
  })
  .meta({
    id: "Error",
    description: "The error envelope. The request id is in the x-request-id header of every answer.",
    example: { error: { code: "BAD_REQUEST", message: "format: Invalid option: expected one of \"pdf\"|\"png\"|\"jpeg\"", retryable: false, details: [{ path: "format", message: "Invalid option: expected one of \"pdf\"|\"png\"|\"jpeg\"" }] } },
  });

/** `{ deleted: true, ids }`: what a DELETE answers. */
export const Deleted = z.object({ deleted: z.literal(true), ids: z.array(z.string()) }).meta({ id: "Deleted", description: "The ids deleted." });
