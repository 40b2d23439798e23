import { rawSql } from "../db/client";
import { log } from "../log";
import { parseEndedNotice, RENDER_ENDED_CHANNEL, RENDER_STOP_CHANNEL, type EndedNotice } from "./notices";

type Waker = (notice: EndedNotice) => void;
type State = { waiters: Map<string, Set<Waker>>; listening?: Promise<unknown> };
const globalKey = Symbol.for("folio.renderEvents");
// why: Next.js may load this module once per route bundle; one process keeps one listener and one table.
const state: State = ((globalThis as unknown as Record<symbol, State>)[globalKey] ??= { waiters: new Map() });
const { waiters } = state;

/**
 * One LISTEN per process on the render-ended channel. Waiting requests are told the moment a
 * render ends, with no polling, and get the ended fields with it.
 */
export function listenForEndedRenders(): Promise<unknown> {
  state.listening ??= rawSql()
    .listen(RENDER_ENDED_CHANNEL, (payload) => {
      let notice: EndedNotice;
      try {
        notice = parseEndedNotice(payload);
      } catch (err) {
        return log().error({ err, payload: payload.slice(0, 200) }, "unreadable render-ended notification");
      }
      const set = waiters.get(notice.id);
      if (set) for (const wake of set) wake(notice);
    })
    .catch((err) => {
      state.listening = undefined;
      log().error({ err }, "could not listen for ended renders");
      throw err;
    });
  return state.listening;
}

/**
 * Calls `fn` with the id of every render that ends other than by its worker's own hand
 * (cancelled, or failed after its worker stopped): the worker uses it to stop that work.
 */
export async function onRenderStopped(fn: (renderId: string) => void) {
  await rawSql().listen(RENDER_STOP_CHANNEL, fn);
}

/** A wait for one render's end: resolves with the ended notice, or undefined after `ms`. */
export type Watch = { wait: (ms: number) => Promise<EndedNotice | undefined>; cancel: () => void };

/**
 * Starts listening for one render's end before it can happen (call it before the render's
 * transaction commits), so no later check is needed to catch an end in between.
 */
export async function watchRenderEnd(renderId: string): Promise<Watch> {
  await listenForEndedRenders();
  let wake!: Waker;
  const ended = new Promise<EndedNotice>((resolve) => (wake = resolve));
  let set = waiters.get(renderId);
  if (!set) waiters.set(renderId, (set = new Set()));
  set.add(wake);
  const cancel = () => {
    set.delete(wake);
    if (set.size === 0) waiters.delete(renderId);
  };
  return {
    cancel,
    wait: async (ms) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([ended, new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ms)))]);
      } finally {
        clearTimeout(timer);
        cancel();
      }
    },
  };
}

/**
 * Resolves when the render ends or after `ms`. The caller re-reads the render afterwards;
 * `isEnded` is checked once the listener is in place, so an end in between is never missed.
 */
export async function waitForRenderEnd(renderId: string, ms: number, isEnded: () => Promise<boolean>): Promise<void> {
  if (ms <= 0) return;
  const watch = await watchRenderEnd(renderId);
  if (await isEnded()) return watch.cancel();
  await watch.wait(ms);
}
