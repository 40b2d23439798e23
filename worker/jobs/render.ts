import type { QueuePayload } from "@/lib/jobs/catalog";
import type { BrowserPool } from "@/lib/render-engine/browser";
import { processRender } from "@/lib/renders/processing";

export async function handleRender({ renderId }: QueuePayload<"render">, pool: BrowserPool) {
  await processRender(renderId, pool);
}
