import type { BrowserPool } from "@/lib/render-engine/browser";
import { processNextRender } from "@/lib/renders/processing";

/** Renders queued renders while `running()`; false once the queue was found empty. */
export function handleNextRender(pool: BrowserPool, running: () => boolean): Promise<boolean> {
  return processNextRender(pool, running);
}
