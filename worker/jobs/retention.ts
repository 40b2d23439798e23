import { purgeAbandonedUploads } from "@/lib/assets";
import { log } from "@/lib/log";
import { purgeExpiredRenders } from "@/lib/renders/retention";

export async function handleRetention() {
  const deleted = await purgeExpiredRenders();
  if (deleted) log().info({ deleted }, "retention deleted old renders");
  const abandoned = await purgeAbandonedUploads();
  if (abandoned) log().info({ abandoned }, "retention deleted assets whose upload never came");
}
