import { describe, expect, it } from "vitest";
import { dataPaths, hbsCompletions, helperNames, type HbsSources } from "./hbs-completions";

const sources: HbsSources = {
  data: { number: "INV-1", customer: { name: "Acme", "first name": "Ann" }, lines: [{ description: "Work", amount: 3 }] },
  helpers: "function money(n) { return n; }\n// function commented(x) {}\nvar upper = (s) => String(s).toUpperCase();\nconst notAHelper = () => 1;\nfunction inner() { function nested() {} }",
  partials: ["row", "address"],
  translations: [{ greeting: "Hi" }, { greeting: "Salut", farewell: "Au revoir" }],
  contentFields: ["intro"],
};
const labels = (r: ReturnType<typeof hbsCompletions>) => r?.options.map((o) => o.label) ?? [];

describe("Handlebars completions", () => {
  it("reads the helpers helpers.js makes global: function declarations and var functions, not let, const, nested or commented ones", () => {
    expect(helperNames(sources.helpers)).toEqual(["money", "inner", "upper"]);
    expect(helperNames("async function later() {}\n/* function hidden() {} */\nvar plain = 1;")).toEqual(["later"]);
  });

  it("offers the data's dotted paths, a list's item fields by name, and brackets for keys Handlebars cannot read plainly", () => {
    const paths = dataPaths(sources.data);
    expect(paths.map((p) => p.label)).toEqual(["number", "customer", "lines", "customer.name", "customer.[first name]", "description", "amount"]);
    expect(paths.find((p) => p.label === "description")).toMatchObject({ type: "property", detail: "in each lines" });
    expect(dataPaths(undefined)).toEqual([]);
  });

  it("after {{ offers helpers, built-ins and data; after {{> the partials; after {{# the block helpers; in arguments the data only", () => {
    const first = hbsCompletions("<p>{{cu", sources);
    expect(first?.from).toBe("<p>{{".length);
    expect(labels(first)).toEqual(expect.arrayContaining(["money", "upper", "lookup", "customer.name", "localization.greeting", "localization.farewell", "content.intro", "@index"]));
    expect(labels(hbsCompletions("{{> ", sources))).toEqual(["row", "address"]);
    expect(labels(hbsCompletions("{{~> ro", sources))).toEqual(["row", "address"]);
    const block = labels(hbsCompletions("{{#e", sources));
    expect(block).toEqual(expect.arrayContaining(["each", "if", "unless", "with", "money"]));
    expect(block).not.toContain("customer.name");
    const argument = hbsCompletions("{{money lines.0.amount cus", sources);
    expect(argument?.from).toBe("{{money lines.0.amount ".length);
    expect(labels(argument)).toContain("customer.name");
    expect(labels(argument)).not.toContain("money");
    expect(labels(hbsCompletions("{{#each lines}}{{desc", sources))).toContain("description");
  });

  it("offers nothing outside a mustache or in a comment", () => {
    expect(hbsCompletions("<p>text", sources)).toBeUndefined();
    expect(hbsCompletions("{{name}} and more", sources)).toBeUndefined();
    expect(hbsCompletions("{{! a comment", sources)).toBeUndefined();
  });
});
