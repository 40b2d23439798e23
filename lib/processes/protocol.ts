/**
 * The protocol of the pool (lib/processes/pool.ts), one for every contained process: the sandbox's
 * host (lib/sandbox/host.mjs) and the Node helpers' entry (lib/helper-process/entry.mjs) check
 * their messages against these types (`// @ts-check`, tsconfig.plain.json).
 */

/** A process says it has started and may take jobs. */
export type ReadyMessage = { ready: true };
/** The pool gives a process one job: its name in the process's table and its arguments. `id` is unguessable. */
export type JobMessage = { id: string; job: string; args: unknown[] };
/** The pool asks a process to stop the job `id` (its caller went away); it still answers it. */
export type CancelMessage = { id: string; cancel: true };
/** Whatever the pool sends. */
export type ToProcess = JobMessage | CancelMessage;
/** A process says which step of the job runs now (its death is charged to it). */
export type StepMessage = { id: string; step: string };
/** A job's end: its value, or the error it threw. */
export type ReplyMessage = { id: string; ok: true; value: unknown } | { id: string; ok: false; error: { name: string; message: string } };
/** Whatever a process sends. */
export type FromProcess = ReadyMessage | StepMessage | ReplyMessage;

