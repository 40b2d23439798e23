// Pure helpers the editors share (server and client): when and by whom a draft was saved.

/** "24 Nov 2026, 10:01 UTC": one fixed zone, so server and browser print the same text. */
export function formatWhen(iso: string): string {
  return `${new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC" }).format(new Date(iso))} UTC`;
}

export type Editor = { type: "user" | "apiKey" | "system"; id: string; name?: string; email?: string };

/** Who saved, as a person reads it: a name, else an email; "API key deploy"; "the admin CLI". */
export function editorLabel(e: Editor | undefined): string {
  if (!e) return "unknown";
  if (e.type === "user") return e.name ?? e.email ?? "a person";
  if (e.type === "apiKey") return `API key ${e.name ?? e.id}`;
  return e.id === "cli" ? "the admin CLI" : `system (${e.id})`;
}
