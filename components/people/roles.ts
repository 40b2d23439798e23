import type { SelectOption } from "@/components/ui/select";
import type { Role } from "@/lib/console/sections";

export const roleNames: Record<Role, string> = { owner: "Owner", admin: "Admin", member: "Member", content_editor: "Content editor" };

/** The roles a person may give: owner only when they are an owner themselves (spec: Roles in the web console). */
export function roleOptions(isOwner: boolean): SelectOption[] {
  return (["owner", "admin", "member", "content_editor"] as const).map((r) => ({ value: r, label: roleNames[r], disabled: r === "owner" && !isOwner }));
}
