import { rawSql } from "../db/client";
import { log } from "../log";
import { RENDER_ENDED_CHANNEL } from "./repository";

type Listener = (renderId: string) => void;

type State = { waiters: Map<string, Set<() => void>>; listeners: Set<Listener>; listening?: Promise<unknown> };
const globalKey = Symbol.for("folio.renderEvents");
// why: Next.js may load this module once per route bundle; one process keeps one listener and one table.
const state: State = ((globalThis as unknown as Record<symbol, State>)[globalKey] ??= { waiters: new Map(), listeners: new Set() });
const { waiters, listeners } = state;

/**
 * One LISTEN connection per process on the render-ended channel. Waiting requests and the worker's
 * cancel watch are told the moment a render ends, with no polling.
 */
export function listenForEndedRenders(): Promise<unknown> {
  state.listening ??= rawSql()
    .listen(RENDER_ENDED_CHANNEL, (id) => {
      const set = waiters.get(id);
      if (set) for (const wake of set) wake();
      for (const l of listeners) l(id);
    })
    .catch((err) => {
      state.listening = undefined;
      log().error({ err }, "could not listen for ended renders");
      throw err;
    });
  return state.listening;
}

/** Calls `fn` with the id of every render that ends anywhere (the worker uses it to stop cancelled work). */
export async function onRenderEnded(fn: Listener) {
  listeners.add(fn);
  await listenForEndedRenders();
}

export type Watch = { wait: (ms: number) => Promise<void>; cancel: () => void };

/**
 * Starts listening for one render's end before it can happen (call it before the render's
 * transaction commits), so no later check is needed to catch an end in between.
 */
export async function watchRenderEnd(renderId: string): Promise<Watch> {
  await listenForEndedRenders();
  let wake!: () => void;
  const ended = new Promise<void>((resolve) => (wake = resolve));
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
        await Promise.race([ended, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
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
