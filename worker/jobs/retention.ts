import { purgeAbandonedUploads } from "@/lib/assets";
import { log } from "@/lib/log";
import { purgeExpiredRenders } from "@/lib/renders/retention";
import { purgeExpiredDeliveries } from "@/lib/webhooks/retention";

export async function handleRetention() {
  const deleted = await purgeExpiredRenders();
  if (deleted) log().info({ deleted }, "retention deleted old renders");
  const abandoned = await purgeAbandonedUploads();
  if (abandoned) log().info({ abandoned }, "retention deleted assets whose upload never came");
  const deliveries = await purgeExpiredDeliveries();
  if (deliveries) log().info({ deleted: deliveries }, "retention deleted old webhook delivery records");
}
