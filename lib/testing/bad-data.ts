/**
 * A template with three bound values and data that gets each of them wrong: a missing name, a
 * currency given as a string, and a table row's amount given as a string. The tests of "every
 * data error at once" (previews, version renders, the Reports API) share it.
 */
export const threeBadValuesContent = {
  composition: {
    root: {
      type: "container",
      children: [
        { type: "text", text: { path: ["customer", "name"] } },
        { type: "text", text: { path: ["total"], format: { type: "currency", currency: "EUR" } } },
        { type: "table", source: { path: ["lines"] }, columns: [{ id: "amount", header: "Amount", value: { path: ["amount"], format: { type: "number" } } }] },
      ],
    },
  },
};

export const threeBadValuesData = { customer: {}, total: "12", lines: [{ amount: 1 }, { amount: "x" }] };
