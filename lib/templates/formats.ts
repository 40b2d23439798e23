/**
 * Formats of bound values (spec: Values and bindings > Format fields): numbers, currencies,
 * percentages and dates through Intl, in the format's locale or the render language.
 */
import { badValue, quote } from "./data-errors";
import type { Format } from "./schema";

/**
 * Intl formatters are costly to build and cheap to reuse: keep the recent ones per locale and
 * options. Bounded, because locales and options come from templates.
 */
const MAX_FORMATTERS = 200;
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function remember<T>(cache: Map<string, T>, key: string, make: () => T, path: string): T {
  let f = cache.get(key);
  if (f) return f;
  try {
    f = make();
  } catch (e) {
    // The schema checks locale, currency and time zone; the render language comes from the caller.
    throw badValue(path, `cannot be formatted: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (cache.size >= MAX_FORMATTERS) cache.delete(cache.keys().next().value as string);
  cache.set(key, f);
  return f;
}

/**
 * Formats a binding's value as text (spec: Values and bindings > Format fields). Without a format:
 * String(value). number, currency and percent need a JSON number; date takes an ISO date, an ISO
 * timestamp with a zone, or milliseconds since 1970. `path` names the value in errors (400).
 */
export function formatValue(value: string | number | boolean, format: Format | undefined, lang: string, path: string): string {
  if (!format) return String(value);
  const locale = format.locale ?? lang;
  if (format.type === "date") {
    const { time, dateOnly } = toTime(value, path);
    // why: an ISO date is a calendar day, not an instant: shown in UTC it stays that day in every zone.
    const timeZone = dateOnly ? "UTC" : (format.timeZone ?? "UTC");
    const dateStyle = format.dateStyle ?? "medium";
    const f = remember(dateFormats, `${locale}|${dateStyle}|${timeZone}`, () => new Intl.DateTimeFormat(locale, { dateStyle, timeZone }), path);
    return f.format(time);
  }
  if (typeof value !== "number") {
    const hint = typeof value === "string" ? " (a numeric string is not a number)" : "";
    throw badValue(path, `is a ${typeof value}, but format ${format.type} needs a JSON number${hint}`);
  }
  const { type, currency, minimumFractionDigits, maximumFractionDigits } = format;
  const key = `${locale}|${type}|${currency ?? ""}|${minimumFractionDigits ?? ""}|${maximumFractionDigits ?? ""}`;
  const f = remember(
    numberFormats,
    key,
    () => new Intl.NumberFormat(locale, { style: type === "number" ? "decimal" : type, currency, minimumFractionDigits, maximumFractionDigits }),
    path,
  );
  return f.format(value);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2}))?$/i;
/** The range of a JavaScript Date, in milliseconds either side of 1970. */
const MAX_TIME = 8.64e15;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isCalendarDate(year: number, month: number, day: number): boolean {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  return days !== undefined && day >= 1 && day <= days;
}

/** The instant a date value names; `dateOnly` for a plain ISO date. */
function toTime(value: string | number | boolean, path: string): { time: number; dateOnly: boolean } {
  if (typeof value === "number") {
    if (!Number.isFinite(value) || Math.abs(value) > MAX_TIME) throw badValue(path, `is out of the range of dates: ${value}`);
    return { time: value, dateOnly: false };
  }
  if (typeof value !== "string") {
    throw badValue(path, "is a boolean, but format date needs an ISO date, an ISO timestamp with a zone, or milliseconds since 1970");
  }
  const date = ISO_DATE.exec(value);
  if (date) {
    if (!isCalendarDate(Number(date[1]), Number(date[2]), Number(date[3]))) throw badValue(path, `is not a calendar date: ${quote(value)}`);
    return { time: Date.parse(value), dateOnly: true };
  }
  const ts = ISO_TIMESTAMP.exec(value);
  if (!ts) throw badValue(path, `is not an ISO date (YYYY-MM-DD), an ISO timestamp with a zone, or milliseconds since 1970: ${quote(value)}`);
  const [, year, month, day, hour, minute, second = "0", zone, offsetHour = "0", offsetMinute = "0"] = ts;
  if (!zone) throw badValue(path, `is a timestamp without a time zone (add Z or an offset such as +01:00): ${quote(value)}`);
  const valid =
    isCalendarDate(Number(year), Number(month), Number(day)) &&
    Number(hour) <= 23 && Number(minute) <= 59 && Number(second) <= 59 && Number(offsetHour) <= 23 && Number(offsetMinute) <= 59;
  const time = Date.parse(value);
  if (!valid || Number.isNaN(time)) throw badValue(path, `is not a valid timestamp: ${quote(value)}`);
  return { time, dateOnly: false };
}
