import { runMaintenance } from "@/lib/maintenance";

export async function handleMaintenance() {
  await runMaintenance();
}
