import { headers } from "next/headers";
import { unstable_rethrow } from "next/navigation";
import { ZodError, type z } from "zod";
import { refuseWhileSuspended, type Ctx, type Effect } from "../auth/context";
import { assertSameOriginHeaders } from "../sessions";
import { isDatabaseUnavailable } from "../db/unavailable";
import { isAppError, unauthorized, type ErrorCode, type ErrorDetail } from "../errors";
import { log } from "../log";
import { formErrorsFromZod, formMessage, plainDetail } from "./form-errors";
import { consoleSession, type ConsoleSession } from "./session";
import { runAsTenant } from "../processes/tenant";

/** What every console server action answers; the client shows `error.message` (and each detail beside its field). */
export type ActionError = { code: ErrorCode; message: string; details?: ErrorDetail[] };
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: ActionError };

/**
 * An AppError (or a ZodError) as the result a client reads; anything else is logged and answered INTERNAL without
 * internals. Problems with the input are worded for people, in one voice (form-errors.ts).
 */
export function toActionError(err: unknown, requestId?: string): ActionError {
  if (err instanceof ZodError) return { code: "BAD_REQUEST", ...formErrorsFromZod(err) };
  const e = err;
  // why only BAD_REQUEST: its details are problems with what was typed; another refusal's details (what holds a
  // folder, which template uses an asset) are a list the form shows as written.
  if (isAppError(e) && e.code === "BAD_REQUEST" && e.details?.length) {
    const details = e.details.map(plainDetail);
    return { code: e.code, message: formMessage(details, e.message), details };
  }
  if (isAppError(e)) return e.details?.length ? { code: e.code, message: e.message, details: e.details } : { code: e.code, message: e.message };
  if (isDatabaseUnavailable(e)) {
    log().warn({ err: e, requestId }, "console action: database unavailable");
    return { code: "INTERNAL", message: "Folio is briefly unavailable: its database does not answer. Your change may not have been saved; try again in a few seconds." };
  }
  log().error({ err: e, requestId }, "console action failed");
  return { code: "INTERNAL", message: `Something went wrong on our side; try again. If it keeps happening, quote ${requestId ?? "the time"} to your administrator.` };
}

/**
 * A FormData as a plain object for zod: one value per key as a string, a repeated key (checkboxes
 * of one name) as an array, files left out. Keys starting with "$ACTION" (Next's own) are dropped.
 */
export function formDataToObject(form: FormData): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(form.keys())) {
    if (key.startsWith("$ACTION")) continue;
    const values = form.getAll(key).filter((v): v is string => typeof v === "string");
    if (values.length === 1) out[key] = values[0]!;
    else if (values.length > 1) out[key] = values;
  }
  return out;
}

/**
 * The console's apiRoute for server actions: checks that the POST comes from the console's own
 * origin (the CSRF rule of lib/sessions; Next's own check lets a request without Origin
 * through), resolves the signed-in person's ctx, parses the input with the verb's zod schema,
 * calls the verb, and answers an ActionResult. It never throws to the client, except Next's
 * redirect()/notFound()/forbidden(), which pass through.
 *
 *   "use server";
 *   export const renameTemplate = consoleAction(RenameInput, (ctx, input) => templates.renameTemplate(ctx, input.id, input));
 *
 * The returned function takes the input object, or a FormData (converted with formDataToObject).
 * An action changes the workspace unless `opts.effect` says otherwise, so a suspended workspace
 * refuses it with 403 (lib/auth/context.ts): reads, the person's own account and platform
 * administration say so.
 */
export function consoleAction<S extends z.ZodType, T>(
  schema: S,
  verb: (ctx: Ctx, input: z.output<S>, session: ConsoleSession) => Promise<T> | T,
  opts: ActionOptions = {},
): (input: z.input<S> | FormData) => Promise<ActionResult<T>> {
  return async (input) =>
    runConsoleAction(async (session) => verb(session.ctx, schema.parse(input instanceof FormData ? formDataToObject(input) : input), session), opts);
}

/** What an action does, for the suspension rule; default "change". */
export type ActionOptions = { effect?: Effect };

/**
 * The same for `useActionState`: (previous result, FormData) => result. The previous result is
 * ignored; a form shows the latest answer.
 */
export function consoleFormAction<S extends z.ZodType, T>(
  schema: S,
  verb: (ctx: Ctx, input: z.output<S>, session: ConsoleSession) => Promise<T> | T,
  opts: ActionOptions = {},
): (previous: ActionResult<T> | null, form: FormData) => Promise<ActionResult<T>> {
  const action = consoleAction(schema, verb, opts);
  return async (_previous, form) => action(form);
}

/** The steps of consoleAction without the parsing, for an action whose input is not one object. */
export async function runConsoleAction<T>(run: (session: ConsoleSession) => Promise<T> | T, opts: ActionOptions = {}): Promise<ActionResult<T>> {
  let requestId: string | undefined;
  try {
    assertSameOriginHeaders("POST", await headers());
    const session = await consoleSession();
    if (!session) throw unauthorized("Your session has ended; sign in again");
    requestId = session.ctx.requestId;
    refuseWhileSuspended(session.workspace.suspended, opts.effect ?? "change");
    return { ok: true, data: await runAsTenant(session.ctx.workspaceId, () => run(session)) };
  } catch (err) {
    unstable_rethrow(err);
    return { ok: false, error: toActionError(err, requestId) };
  }
}

