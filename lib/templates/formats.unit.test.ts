import { describe, expect, it } from "vitest";
import { thrown } from "../testing/app-error";
import { formatValue } from "./formats";
import { Format } from "./schema";

describe("formatValue", () => {
  const f = (value: string | number | boolean, format: unknown, lang = "en-US", path = "v") => formatValue(value, Format.parse(format), lang, path);
  const locales = ["en-US", "de-CH", "fr-FR", "ja-JP"];

  describe.each(locales)("in %s, the same as Intl with the same options", (locale) => {
    it.each([
      [{ type: "number" }, 1234567.891, {}],
      [{ type: "number", minimumFractionDigits: 2 }, 1234.5, { minimumFractionDigits: 2 }],
      [{ type: "number", maximumFractionDigits: 0 }, 1234.5, { maximumFractionDigits: 0 }],
      [{ type: "number" }, -0.5, {}],
      [{ type: "currency", currency: "EUR" }, 1234.5, { style: "currency", currency: "EUR" }],
      [{ type: "currency", currency: "CHF" }, -1234.5, { style: "currency", currency: "CHF" }],
      [{ type: "currency", currency: "JPY" }, 1234.5, { style: "currency", currency: "JPY" }],
      [{ type: "currency", currency: "USD", maximumFractionDigits: 0 }, 99.5, { style: "currency", currency: "USD", maximumFractionDigits: 0 }],
      [{ type: "percent" }, 0.2, { style: "percent" }],
      [{ type: "percent", minimumFractionDigits: 1 }, 0.1234, { style: "percent", minimumFractionDigits: 1 }],
    ])("%j of %d", (format, value, options) => {
      expect(f(value, { ...format, locale })).toBe(new Intl.NumberFormat(locale, options as Intl.NumberFormatOptions).format(value));
      expect(f(value, format, locale)).toBe(new Intl.NumberFormat(locale, options as Intl.NumberFormatOptions).format(value));
    });

    it.each(["short", "medium", "long", "full"] as const)("date with dateStyle %s", (dateStyle) => {
      const expected = new Intl.DateTimeFormat(locale, { dateStyle, timeZone: "UTC" }).format(Date.UTC(2024, 2, 5));
      expect(f("2024-03-05", { type: "date", dateStyle }, locale)).toBe(expected);
      expect(f("2024-03-05T12:00:00Z", { type: "date", dateStyle, locale })).toBe(expected);
    });
  });

  it("matches literal expectations", () => {
    // de-CH groups with an apostrophe (ASCII in current ICU, U+2019 in older ones) and puts a
    // no-break space after the currency code.
    expect(f(1234.5, { type: "currency", currency: "CHF" }, "de-CH")).toMatch(/^CHF\u00a01['\u2019]234\.50$/);
    expect(f(0.2, { type: "percent" })).toBe("20%");
    expect(f(1234.5, { type: "currency", currency: "USD" })).toBe("$1,234.50");
    expect(f(1234.5, { type: "number" }, "fr-FR")).toBe("1\u202f234,5"); // narrow no-break space
    expect(f(1234.5, { type: "currency", currency: "EUR" }, "fr-FR")).toBe("1\u202f234,50\u00a0€");
    expect(f(1234.5, { type: "currency", currency: "JPY" }, "ja-JP")).toBe("￥1,235");
    expect(f(1.005, { type: "number", minimumFractionDigits: 3, maximumFractionDigits: 3 })).toBe("1.005");
    expect(f("2024-03-05", { type: "date" })).toBe("Mar 5, 2024");
    expect(f("2024-03-05", { type: "date", dateStyle: "long" }, "de-CH")).toBe("5. März 2024");
  });

  it("format locale wins over the render language", () => {
    expect(f(1234.5, { type: "number", locale: "de-DE" }, "en-US")).toBe("1.234,5");
    expect(f(1234.5, { type: "number" }, "de-DE")).toBe("1.234,5");
  });

  it("keeps formatters with different options apart", () => {
    expect(f(1, { type: "number", minimumFractionDigits: 2 })).toBe("1.00");
    expect(f(1, { type: "number" })).toBe("1");
    expect(f(1, { type: "currency", currency: "EUR" })).toBe("€1.00");
    expect(f(1, { type: "currency", currency: "USD" })).toBe("$1.00");
  });

  describe("dates", () => {
    it("shows an ISO date as that calendar day whatever the time zone", () => {
      expect(f("2024-03-05", { type: "date", timeZone: "Pacific/Honolulu" })).toBe("Mar 5, 2024");
      expect(f("2024-03-05", { type: "date", timeZone: "Pacific/Kiritimati" })).toBe("Mar 5, 2024");
      expect(f("2024-02-29", { type: "date" })).toBe("Feb 29, 2024");
      expect(f("0001-01-01", { type: "date" })).toBe(new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(Date.parse("0001-01-01")));
    });

    it("shows a timestamp with a zone in the format's time zone, UTC by default", () => {
      expect(f("2024-03-05T23:30:00Z", { type: "date" })).toBe("Mar 5, 2024");
      expect(f("2024-03-05T23:30:00Z", { type: "date", timeZone: "Asia/Tokyo" })).toBe("Mar 6, 2024");
      expect(f("2024-03-05T23:30:00Z", { type: "date", timeZone: "America/New_York" })).toBe("Mar 5, 2024");
      expect(f("2024-03-06T01:00:00+02:00", { type: "date" })).toBe("Mar 5, 2024");
      expect(f("2024-03-05T20:00:00.123-05:00", { type: "date", timeZone: "Europe/Zurich" })).toBe("Mar 6, 2024");
      expect(f("2024-03-05T10:00Z", { type: "date" })).toBe("Mar 5, 2024");
    });

    it("takes milliseconds since 1970", () => {
      expect(f(0, { type: "date" })).toBe("Jan 1, 1970");
      expect(f(Date.UTC(2024, 11, 31, 23), { type: "date", timeZone: "Europe/Zurich", dateStyle: "short" })).toBe("1/1/25");
    });

    it.each([
      ["2024-03-05T10:00:00", "is a timestamp without a time zone"],
      ["2024-03-05T10:00", "is a timestamp without a time zone"],
      ["2024-02-30", "is not a calendar date"],
      ["2023-02-29", "is not a calendar date"],
      ["2024-13-01", "is not a calendar date"],
      ["2024-03-05T24:00:00Z", "is not a valid timestamp"],
      ["2024-03-05T10:00:00+24:00", "is not a valid timestamp"],
      ["5 March 2024", "is not an ISO date"],
      ["1709596800000", "is not an ISO date"],
      ["", "is not an ISO date"],
    ])("refuses %j with 400 naming the path", (value, message) => {
      const e = thrown(() => f(value, { type: "date" }, "en-US", "invoice.date"));
      expect(e.code).toBe("BAD_REQUEST");
      expect(e.message).toContain(`Value at invoice.date ${message}`);
      expect(e.details?.[0]?.path).toBe("invoice.date");
    });

    it("refuses a boolean and milliseconds out of the date range", () => {
      expect(thrown(() => f(true, { type: "date" }, "en-US", "d")).details?.[0]?.path).toBe("d");
      expect(thrown(() => f(8.64e15 + 1, { type: "date" }, "en-US", "d")).code).toBe("BAD_REQUEST");
    });
  });

  it.each([
    [{ type: "number" }, "12"],
    [{ type: "currency", currency: "EUR" }, "12.50"],
    [{ type: "percent" }, "0.2"],
    [{ type: "number" }, true],
  ])("refuses %j of %j (not a JSON number) with 400 naming the path", (format, value) => {
    const e = thrown(() => f(value, format, "en-US", "order.total"));
    expect(e.code).toBe("BAD_REQUEST");
    expect(e.message).toMatch(/^Value at order\.total is a (string|boolean), but format \w+ needs a JSON number/);
    expect(e.details?.[0]?.path).toBe("order.total");
  });

  it("fails with 400 naming the path for a render language Intl does not accept", () => {
    const e = thrown(() => f(1, { type: "number" }, "not a locale!", "p"));
    expect(e.code).toBe("BAD_REQUEST");
    expect(e.details?.[0]?.path).toBe("p");
  });
});
