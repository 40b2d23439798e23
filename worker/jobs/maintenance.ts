import { runMaintenance } from "@/lib/jobs/maintenance";

export async function handleMaintenance() {
  await runMaintenance();
}
