import type { BrowserPool } from "@/lib/render-engine/browser";
import { processNextRender } from "@/lib/renders/processing";

/** Renders the oldest queued render, if any; false when the queue was empty. */
export function handleNextRender(pool: BrowserPool): Promise<boolean> {
  return processNextRender(pool);
}
