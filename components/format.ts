// Formats the console shows numbers and times in. Pure, so server and client components agree
// (times are UTC and say so: the server does not know the reader's time zone, and a page must not
// change between the server's HTML and the browser's).

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const fullDateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeStyle: "medium", timeZone: "UTC" });
const time = new Intl.DateTimeFormat("en-GB", { timeStyle: "short", timeZone: "UTC" });
const date = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

/** "24 Nov 2026, 09:41 UTC" */
export const formatDateTime = (iso: string) => `${dateTime.format(new Date(iso))} UTC`;
/** "24 November 2026 at 09:41:05 UTC", for titles and timelines. */
export const formatFullDateTime = (iso: string) => `${fullDateTime.format(new Date(iso))} UTC`;
/** "24 Nov 2026" (the UTC day) */
export const formatDate = (iso: string) => date.format(new Date(iso));
/** "09:41 UTC" */
export const formatTime = (iso: string) => `${time.format(new Date(iso))} UTC`;

/** "320 ms", "1.4 s", "2 min 5 s" */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** "16.3 kB", "2.1 MB" (decimal units, as file managers show them) */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)} kB`;
  return `${(n / 1_000_000).toFixed(1)} MB`;
}
