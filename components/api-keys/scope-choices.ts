// The scopes a new key can get, with the presets the create dialog offers. Pure data (the dialog
// is a client component); lib/keys checks the choice again on the server.
import { scopeActions, scopes, type Scope } from "@/lib/auth/scopes";

export { scopes, type Scope };

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "Create renders": what the scope lets a key do, from lib/auth/scopes.ts. */
export const scopeHint = (s: Scope) => capitalise(scopeActions[s]);

export type Preset = { id: "all" | "render" | "templates"; label: string; scopes: readonly Scope[] };

export const presets: readonly Preset[] = [
  { id: "all", label: "All", scopes },
  { id: "render", label: "Render only", scopes: ["render:create", "render:read", "render:cancel"] },
  { id: "templates", label: "Templates only", scopes: ["template:read", "template:write", "template:publish", "template:content"] },
];

/** The preset a set of scopes is exactly, if any. */
export function presetOf(chosen: ReadonlySet<string>): Preset["id"] | undefined {
  return presets.find((p) => p.scopes.length === chosen.size && p.scopes.every((s) => chosen.has(s)))?.id;
}

/** spec: API key > Create: the console offers Never, 30, 90 or 365 days. */
export const lifetimes = [
  { value: "never", label: "Never expires", days: undefined },
  { value: "30", label: "30 days", days: 30 },
  { value: "90", label: "90 days", days: 90 },
  { value: "365", label: "365 days", days: 365 },
] as const;
