import { hbsStarter, type HbsContent } from "./hbs-editor-tabs";

/**
 * Handlebars templates a person can begin from in the console's create dialog (issue 34: a newcomer
 * looked for them). Each is whole: a partial or helper where the document needs one, a header and
 * footer, and sample data that renders it, so the first preview already shows a real document.
 * Plain data only; the create action saves them through the same checks as any save.
 */
export const HBS_STARTERS = ["basic", "invoice", "report", "letter"] as const;
export type HbsStarterName = (typeof HBS_STARTERS)[number];

export const HBS_STARTER_LABELS: Record<HbsStarterName, string> = {
  basic: "Basic: a partial, a helper, a script",
  invoice: "Invoice: lines, tax and totals",
  report: "Report: sections with a table each",
  letter: "Letter: addresses, date and signature",
};

const FONT = "font-family: 'DejaVu Sans', sans-serif";
const footer = (left: string) =>
  `<div style="font-size: 8px; width: 100%; display: flex; justify-content: space-between; padding: 0 12mm">` +
  `<span>${left}</span><span>Page {{pageNumber}} of {{totalPages}}</span></div>`;

const money = [
  "// {{money amount}}: the amount in the data's currency, as the render language writes it.",
  "function money(value, options) {",
  "  const root = options.data.root;",
  '  return new Intl.NumberFormat(root.locale || "en-US", { style: "currency", currency: root.currency || "EUR" }).format(Number(value) || 0);',
  "}",
].join("\n");

function invoice(name: string, settings: Record<string, unknown>): HbsContent {
  return {
    templateHtml: [
      "<html>",
      `<body style="${FONT}; font-size: 11px; color: #222">`,
      '  <div style="display: flex; justify-content: space-between">',
      "    <div>{{> address seller}}</div>",
      '    <div style="text-align: right"><h1 style="margin: 0">Invoice {{number}}</h1><p>Issued {{issued}}<br>Due {{due}}</p></div>',
      "  </div>",
      '  <p style="margin-top: 8mm"><strong>Bill to</strong><br>{{> address buyer}}</p>',
      '  <table style="width: 100%; border-collapse: collapse; margin-top: 6mm">',
      '    <thead><tr style="border-bottom: 1px solid #999"><th align="left">Item</th><th align="right">Qty</th><th align="right">Price</th><th align="right">Amount</th></tr></thead>',
      "    <tbody>",
      "      {{#each lines}}",
      '      <tr><td>{{description}}</td><td align="right">{{quantity}}</td><td align="right">{{money price}}</td><td align="right">{{money amount}}</td></tr>',
      "      {{/each}}",
      "    </tbody>",
      "  </table>",
      '  <table style="margin-left: auto; margin-top: 4mm">',
      '    <tr><td>Subtotal</td><td align="right">{{money subtotal}}</td></tr>',
      '    <tr><td>Tax {{taxPercent}} %</td><td align="right">{{money tax}}</td></tr>',
      '    <tr><td><strong>Total</strong></td><td align="right"><strong>{{money total}}</strong></td></tr>',
      "  </table>",
      "  {{#if notes}}<p style=\"margin-top: 8mm\">{{notes}}</p>{{/if}}",
      "</body>",
      "</html>",
    ].join("\n"),
    partials: { address: "{{name}}<br>{{street}}<br>{{postcode}} {{city}}<br>{{country}}" },
    helpers: money,
    scripts: [
      {
        name: "totals",
        source: [
          "// Computes each line's amount and the totals before the template runs.",
          "function beforeRender(data) {",
          "  let subtotal = 0;",
          "  for (const line of data.lines || []) {",
          "    line.amount = Math.round(line.quantity * line.price * 100) / 100;",
          "    subtotal += line.amount;",
          "  }",
          "  data.subtotal = Math.round(subtotal * 100) / 100;",
          "  data.tax = Math.round(data.subtotal * (data.taxPercent || 0)) / 100;",
          "  data.total = Math.round((data.subtotal + data.tax) * 100) / 100;",
          "}",
        ].join("\n"),
      },
    ],
    header: '<div style="font-size: 8px; width: 100%; text-align: right; padding-right: 12mm">{{seller.name}}</div>',
    footer: footer("Invoice {{number}}"),
    settings,
    sampleData: [
      {
        name: "example",
        data: {
          number: "2026-0042",
          issued: "1 December 2026",
          due: "31 December 2026",
          currency: "EUR",
          locale: "en-US",
          taxPercent: 20,
          seller: { name, street: "1 Harbour Street", postcode: "10115", city: "Berlin", country: "Germany" },
          buyer: { name: "Acme Ltd", street: "5 Market Square", postcode: "EC1A 1BB", city: "London", country: "United Kingdom" },
          lines: [
            { description: "Design", quantity: 10, price: 80 },
            { description: "Hosting (monthly)", quantity: 1, price: 45.5 },
          ],
          notes: "Thank you for your business.",
        },
      },
    ],
  };
}

function report(name: string, settings: Record<string, unknown>): HbsContent {
  return {
    templateHtml: [
      "<html>",
      `<body style="${FONT}; font-size: 11px; color: #222">`,
      '  <h1 style="margin-bottom: 0">{{title}}</h1>',
      '  <p style="color: #666">{{period}}</p>',
      "  {{#each sections}}",
      "  {{> section}}",
      "  {{/each}}",
      "</body>",
      "</html>",
    ].join("\n"),
    partials: {
      section: [
        '<h2 style="margin-top: 8mm">{{heading}}</h2>',
        "{{#if summary}}<p>{{summary}}</p>{{/if}}",
        '<table style="width: 100%; border-collapse: collapse">',
        '  <thead><tr style="border-bottom: 1px solid #999"><th align="left">Metric</th><th align="right">Value</th><th align="right">Change</th></tr></thead>',
        '  <tbody>{{#each rows}}<tr><td>{{label}}</td><td align="right">{{value}}</td><td align="right">{{change change}}</td></tr>{{/each}}</tbody>',
        "</table>",
      ].join("\n"),
    },
    helpers: [
      "// {{change 0.12}} prints +12.0 %, a fall with a minus sign.",
      "function change(value) {",
      "  const n = Number(value) * 100;",
      '  return (n > 0 ? "+" : "") + n.toFixed(1) + " %";',
      "}",
    ].join("\n"),
    header: '<div style="font-size: 8px; width: 100%; text-align: right; padding-right: 12mm">{{title}}</div>',
    footer: footer("{{period}}"),
    settings,
    sampleData: [
      {
        name: "example",
        data: {
          title: name,
          period: "November 2026",
          sections: [
            {
              heading: "Sales",
              summary: "Orders grew in every region.",
              rows: [
                { label: "Orders", value: "1,284", change: 0.12 },
                { label: "Revenue", value: "EUR 96,300", change: 0.08 },
              ],
            },
            {
              heading: "Support",
              rows: [
                { label: "Tickets", value: "312", change: -0.05 },
                { label: "Median first answer", value: "2 h 10 min", change: -0.2 },
              ],
            },
          ],
        },
      },
    ],
  };
}

function letter(name: string, settings: Record<string, unknown>): HbsContent {
  return {
    templateHtml: [
      "<html>",
      `<body style="${FONT}; font-size: 12px; line-height: 1.5; color: #222">`,
      '  <p style="text-align: right">{{sender.name}}<br>{{sender.street}}<br>{{sender.city}}</p>',
      "  <p>{{recipient.name}}<br>{{recipient.street}}<br>{{recipient.city}}</p>",
      '  <p style="text-align: right">{{city}}, {{date}}</p>',
      "  <p><strong>{{subject}}</strong></p>",
      "  <p>Dear {{recipient.name}},</p>",
      "  {{#each paragraphs}}<p>{{this}}</p>{{/each}}",
      "  <p>Yours sincerely,</p>",
      '  <p style="margin-top: 14mm">{{sender.signatory}}</p>',
      "</body>",
      "</html>",
    ].join("\n"),
    footer: footer("{{sender.name}}"),
    settings,
    sampleData: [
      {
        name: "example",
        data: {
          sender: { name, street: "1 Harbour Street", city: "10115 Berlin", signatory: "Jane Doe" },
          recipient: { name: "Alex Smith", street: "5 Market Square", city: "London EC1A 1BB" },
          city: "Berlin",
          date: "1 December 2026",
          subject: "Your subscription",
          paragraphs: ["Thank you for renewing your subscription for another year.", "Your invoice follows in a separate message."],
        },
      },
    ],
  };
}

/** The content of a new Handlebars template made from `starter`, named `name`, with the dialog's page settings. */
export function hbsStarterContent(starter: HbsStarterName, name: string, settings: Record<string, unknown>): HbsContent {
  switch (starter) {
    case "invoice":
      return invoice(name, settings);
    case "report":
      return report(name, settings);
    case "letter":
      return letter(name, settings);
    default:
      return hbsStarter(name, settings);
  }
}
