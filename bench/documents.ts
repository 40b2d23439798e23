/** Realistic documents for the benchmark: a 1-page A4 invoice and a ~20-page A4 report. */

const css = `
  body { font-family: "DejaVu Sans", "Liberation Sans", sans-serif; font-size: 10pt; color: #1f2937; margin: 0; }
  header { display: flex; justify-content: space-between; align-items: flex-start; margin-bottom: 18px; }
  h1 { font-size: 20pt; margin: 0; color: #111827; }
  .muted { color: #6b7280; }
  table { width: 100%; border-collapse: collapse; }
  th, td { padding: 4px 6px; border-bottom: 1px solid #e5e7eb; text-align: left; }
  th { background: #f3f4f6; font-weight: 600; }
  td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
  tr { break-inside: avoid; }
  .totals { margin-top: 12px; margin-left: auto; width: 40%; }
  .totals td { border: none; }
  .badge { display: inline-block; padding: 2px 8px; border-radius: 9999px; background: #dbeafe; color: #1e40af; font-size: 8pt; }
`;

function rows(n: number, seed: number) {
  let out = "";
  let total = 0;
  for (let i = 1; i <= n; i++) {
    const qty = ((i * 7 + seed) % 9) + 1;
    const price = (((i * 37 + seed) % 500) + 10) / 4;
    total += qty * price;
    out += `<tr><td>${i}</td><td>Consulting item ${i} <span class="muted">ref ${(seed * 1000 + i).toString(36)}</span></td><td class="num">${qty}</td><td class="num">${price.toFixed(2)}</td><td class="num">${(qty * price).toFixed(2)}</td></tr>`;
  }
  return { html: out, total };
}

export function invoiceHtml(seed = 1): string {
  const r = rows(30, seed);
  return `<!doctype html><html><head><meta charset="utf-8"><title>Invoice ${seed}</title><style>${css}</style></head><body>
  <header><div><h1>Invoice INV-${1000 + seed}</h1><div class="muted">Issued 2026-11-21 · Due 2026-12-21</div></div>
  <div style="text-align:right"><strong>Folio Consulting AG</strong><br>Bahnhofstrasse 1<br>8001 Zürich <span class="badge">Paid</span></div></header>
  <p><strong>Bill to:</strong> Example Customer Ltd, 221B Baker Street, London</p>
  <table><thead><tr><th>#</th><th>Description</th><th class="num">Qty</th><th class="num">Price</th><th class="num">Amount</th></tr></thead>
  <tbody>${r.html}</tbody></table>
  <table class="totals"><tr><td>Subtotal</td><td class="num">${r.total.toFixed(2)}</td></tr>
  <tr><td>VAT 8.1%</td><td class="num">${(r.total * 0.081).toFixed(2)}</td></tr>
  <tr><th>Total CHF</th><th class="num">${(r.total * 1.081).toFixed(2)}</th></tr></table>
  </body></html>`;
}

export function reportHtml(seed = 1): string {
  const r = rows(900, seed);
  return `<!doctype html><html><head><meta charset="utf-8"><title>Report ${seed}</title><style>${css}</style></head><body>
  <h1>Quarterly activity report</h1><p class="muted">All line items of the quarter, ${900} rows.</p>
  <table><thead><tr><th>#</th><th>Description</th><th class="num">Qty</th><th class="num">Price</th><th class="num">Amount</th></tr></thead>
  <tbody>${r.html}</tbody></table></body></html>`;
}

/** A component template with a 500-row line-item table (issue: expansion within 1.3x of plain HTML). */
export function tableTemplateContent() {
  const money = (path: string) => ({ path: [path], format: { type: "currency", currency: "EUR" } });
  return {
    settings: { locale: "de-CH", margins: { topMm: 15, bottomMm: 15 } },
    composition: {
      root: {
        type: "container",
        style: { fontFamily: "DejaVu Sans, sans-serif", fontSize: 12 },
        children: [
          { type: "text", text: { parts: ["Invoice ", { path: ["number"] }] }, style: { fontSize: 24, fontWeight: 600 } },
          { type: "text", text: { path: ["customer", "name"] } },
          {
            type: "table",
            source: { path: ["items"] },
            columns: [
              { id: "pos", header: "#", value: { path: ["pos"] }, width: 40 },
              { id: "desc", header: "Description", value: { path: ["description"] } },
              { id: "qty", header: "Qty", value: { path: ["qty"], format: { type: "number" } }, width: 60, style: { textAlign: "right" } },
              { id: "price", header: "Price", value: money("price"), width: 100, style: { textAlign: "right" } },
              { id: "total", header: "Total", value: money("total"), width: 110, style: { textAlign: "right" } },
            ],
          },
        ],
      },
      footer: "<div style='text-align:right'>{{customer.name}} · Page {{pageNumber}} of {{totalPages}}</div>",
    },
  };
}

export function tableTemplateData(n: number) {
  return {
    number: "2026-0042",
    customer: { name: "Acme AG" },
    items: Array.from({ length: n }, (_, i) => {
      const qty = ((i * 7) % 9) + 1;
      const price = (((i * 37) % 500) + 10) / 4;
      return { pos: i + 1, description: `Consulting item ${i + 1}`, qty, price, total: qty * price };
    }),
  };
}

/**
 * The invoice as a Handlebars template (issue 33: >= 0.90 of the same HTML as a caller document):
 * a row partial, a helpers.js number format and a beforeRender script for the totals. With
 * invoiceHandlebarsData(seed) it renders exactly invoiceHtml(seed).
 */
export function invoiceHandlebarsContent() {
  const html = invoiceHtml(1);
  const head = html.slice(0, html.indexOf("<tbody>") + "<tbody>".length).replace("Invoice 1</title>", "Invoice {{seed}}</title>").replace("Invoice INV-1001", "Invoice {{number}}");
  return {
    templateHtml:
      `${head}{{#each rows}}{{> row}}{{/each}}</tbody></table>
  <table class="totals"><tr><td>Subtotal</td><td class="num">{{fixed subtotal}}</td></tr>
  <tr><td>VAT 8.1%</td><td class="num">{{fixed vat}}</td></tr>
  <tr><th>Total CHF</th><th class="num">{{fixed total}}</th></tr></table>
  </body></html>`,
    partials: {
      row: `<tr><td>{{i}}</td><td>Consulting item {{i}} <span class="muted">ref {{ref}}</span></td><td class="num">{{qty}}</td><td class="num">{{fixed price}}</td><td class="num">{{fixed amount}}</td></tr>`,
    },
    helpers: "function fixed(value) {\n  return Number(value).toFixed(2);\n}\n",
    scripts: [
      {
        name: "totals",
        source:
          "function beforeRender(data) {\n  let subtotal = 0;\n  for (const r of data.rows) { r.amount = r.qty * r.price; subtotal += r.amount; }\n" +
          "  data.subtotal = subtotal;\n  data.vat = subtotal * 0.081;\n  data.total = subtotal * 1.081;\n}\n",
      },
    ],
  };
}

export function invoiceHandlebarsData(seed = 1) {
  return {
    seed,
    number: `INV-${1000 + seed}`,
    rows: Array.from({ length: 30 }, (_, k) => {
      const i = k + 1;
      return { i, qty: ((i * 7 + seed) % 9) + 1, price: (((i * 37 + seed) % 500) + 10) / 4, ref: (seed * 1000 + i).toString(36) };
    }),
  };
}
