/**
 * The sandbox driven directly (no database, no server): what runs, what each step sees, the
 * spec's limits at their bounds (Limits > Scripts and helpers), escapes tried for real, and the
 * process the isolates live in. Every refusal is followed by a run that must work as before.
 */
import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { rejected } from "../testing/app-error";
import { findSystemUser } from "../private-files";
import { checkData } from "../templates/data-schema";
import { runAsTenant } from "../processes/tenant";
import { checkSchemaInSandbox, runSandbox, sandboxPids, stopSandbox, type SandboxJob } from ".";

const template = (source: string, more: Partial<SandboxJob> = {}): SandboxJob => ({ steps: [{ name: "template", source }], data: {}, ...more });
const html = async (source: string, more: Partial<SandboxJob> = {}) => (await runSandbox(template(source, more))).outputs.template;

/** A run after a refusal: works, with nothing of the refused one left. */
async function stillWorks() {
  const started = performance.now();
  expect(await html("Hi {{name}} {{check}}", { data: { name: "Ann" }, helpers: "function check() { return typeof globalThis.leak + typeof Object.prototype.polluted; }" })).toBe("Hi Ann undefinedundefined");
  // why so loose: the machine is shared; a run that waited on a limit (2 s) or a restart would show.
  expect(performance.now() - started).toBeLessThan(1500);
}

afterAll(() => stopSandbox());

describe("the sandbox process", () => {
  it("holds none of the server's settings and, when the server is root, runs as the render user without privileges", async () => {
    await stopSandbox();
    const before = { ...process.env };
    process.env.SECRET_KEY = "s".repeat(64);
    process.env.DATABASE_URL = "postgres://folio:secret@localhost/folio";
    try {
      expect(await html("{{x}}", { data: { x: 1 } })).toBe("1");
    } finally {
      process.env = before;
    }
    const pid = sandboxPids()[0]!;
    expect(pid).toBeGreaterThan(0);
    const env = fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
    const names = env.map((e) => e.slice(0, e.indexOf("=")));
    expect(names.sort()).toEqual(["LANG", "NODE_CHANNEL_FD", "NODE_CHANNEL_SERIALIZATION_MODE", "PATH"]);
    expect(env.join("\n")).not.toContain("secret");
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    expect(status).toMatch(/^NoNewPrivs:\s+1$/m);
    expect(status).toMatch(/^CapEff:\s+0+$/m);
    if (process.getuid!() === 0) {
      const user = findSystemUser(process.env.CHROMIUM_USER ?? "folio-render")!;
      expect(status).toMatch(new RegExp(`^Uid:\\s+${user.uid}\\s+${user.uid}\\s+${user.uid}\\s+${user.uid}$`, "m"));
      expect(status).toMatch(/^CapPrm:\s+0+$/m);
    }
    // Node's permission model: no files written, no processes started, even by a host-realm escape.
    expect(fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")).toEqual(expect.arrayContaining(["--permission", "--no-node-snapshot"]));
  });

  it("is started again when it dies, and a run with an abort signal ends when it fires", async () => {
    const first = sandboxPids()[0]!;
    process.kill(first, "SIGKILL");
    await expect.poll(() => sandboxPids()[0] === first, { timeout: 5000 }).toBe(false);
    expect(await html("ok")).toBe("ok");
    expect(sandboxPids()[0]).not.toBe(first);
    const controller = new AbortController();
    const pids = sandboxPids();
    const running = runSandbox(template("{{spin}}", { helpers: "function spin() { for (;;); }" }), controller.signal);
    setTimeout(() => controller.abort(new Error("client went away")), 100);
    await expect(running).rejects.toThrow("client went away");
    await stillWorks();
    // The process disposed the step's isolate and answered: none was killed and started again
    // (a client that disconnects at will costs no process start).
    expect(sandboxPids().filter((pid) => pids.includes(pid))).toEqual(pids);
  });
});

describe("steps", () => {
  it("runs helpers.js functions as helpers (arguments, hash, blocks), partials, and the built-in pageNumber/totalPages", async () => {
    const helpers = `
      function upper(s) { return String(s).toUpperCase(); }
      function money(n, options) { return options.hash.currency + " " + n.toFixed(2); }
      var twice = function (options) { return options.fn(this) + options.fn(this); };
      function either(v, options) { return v ? options.fn(this) : options.inverse(this); }`;
    const out = await html("{{upper name}} {{money 5 currency='CHF'}} {{#twice}}[{{name}}]{{/twice}} {{#either no}}y{{else}}n{{/either}} {{> row x=name}} {{pageNumber}}", {
      data: { name: "<b>", no: false },
      helpers,
      partials: { row: "({{x}})" },
    });
    expect(out).toBe('&lt;B&gt; CHF 5.00 [&lt;b&gt;][&lt;b&gt;] n (&lt;b&gt;) <span class="pageNumber"></span>');
  });

  it("runs helpers.js in the render's own call: a file ending in a comment or without a semicolon works, and its top-level faults name it with their line", async () => {
    expect(await html("{{a}}-{{b}}", { data: {}, helpers: "function a() { return 1; }\nconst x = 2\nfunction b() { return x; } // no newline after this" })).toBe("1-2");
    expect(await html("{{a}}", { data: {}, helpers: "function a() { return 1; }\n/* a block comment at the end */" })).toBe("1");
    const thrown = await rejected(runSandbox({ steps: [{ name: "template", source: "{{a}}" }], helpers: "function a() { return 1; }\n\nthrow new TypeError('no');", data: {} }));
    expect(thrown).toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/^helpers\.js: TypeError: no \(line 3\)/) });
    const syntax = await rejected(runSandbox({ steps: [{ name: "template", source: "{{a}}" }], helpers: "function a() {\n  return 1;\n", data: {} }));
    expect(syntax).toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/^helpers\.js: /) });
  });

  it("a synchronous beforeRender's changes are the body's at once; work a script starts without returning its promise is not waited for", async () => {
    const r = await runSandbox({
      scripts: [
        { name: "first", source: "function beforeRender(data) { data.n = 1; }" },
        { name: "second", source: "function beforeRender(data) { data.n += 1; Promise.resolve().then(() => { data.late = true; }); }" },
      ],
      steps: [{ name: "template", source: "{{n}} {{late}}" }],
      data: {},
    });
    expect(r.outputs.template).toBe("2 ");
    expect(r.data).toEqual({ n: 2 });
  });

  it("runs scripts in order before the steps: async, returning new data or changing it; every step sees the result", async () => {
    const r = await runSandbox({
      scripts: [
        { name: "totals", source: "async function beforeRender(data) { await null; data.total = data.items.reduce((a, b) => a + b, 0); }" },
        { name: "reshape", source: "const beforeRender = (data) => ({ ...data, label: 'Total ' + data.total });" },
      ],
      steps: [
        { name: "template", source: "{{label}}" },
        { name: "header", source: "{{total}}" },
      ],
      data: { items: [1, 2, 3] },
    });
    expect(r.outputs).toEqual({ template: "Total 6", header: "6" });
    expect(r.data).toEqual({ items: [1, 2, 3], total: 6, label: "Total 6" });
  });

  it("keeps the first 100 console calls, each cut to 2,000 characters, with the step that made them", async () => {
    const r = await runSandbox(
      template("{{noise}}", {
        scripts: [{ name: "s", source: "function beforeRender() { console.warn('from', 'script', { a: 1 }); }" }],
        helpers: "function noise() { console.log('x'.repeat(2500)); for (let i = 0; i < 150; i++) console.info(i); return ''; }",
      }),
    );
    expect(r.console).toHaveLength(100);
    expect(r.console[0]).toEqual({ step: "scripts", level: "warn", message: 'from script {"a":1}' });
    expect(r.console[1]!.message).toBe("x".repeat(2000));
    expect(r.console[1]!.step).toBe("template");
    expect(r.console[99]).toEqual({ step: "template", level: "info", message: "97" });
  });

  it.each([
    ["the template", template("a\n{{#if}}"), "template", /^template: Parse error on line 2/],
    ["a partial", template("{{> invoice-row}}", { partials: { "invoice-row": "\n\n{{/x}}" } }), "partial invoice-row", /^partial invoice-row: Parse error on line 3/],
    ["helpers.js", template("x", { helpers: "function a() {\n  +}" }), "helpers.js", /^helpers\.js: .*\(line 2\)$/],
    ["helpers.js throwing when called", template("{{boom}}", { helpers: "function boom() {\n  return null.x;\n}" }), "template", /^template: TypeError: .*\(helpers\.js line 2\)$/],
    ["a script", template("x", { scripts: [{ name: "totals", source: "function beforeRender(d) {\n  d = ;\n}" }] }), "script totals", /^script totals: .*\(line 2\)$/],
    ["a script that throws", template("x", { scripts: [{ name: "totals", source: "\nasync function beforeRender() {\n  throw new RangeError('no rates'); }" }] }), "script totals", /^script totals: RangeError: no rates \(script totals line 3\)$/],
    ["a script without beforeRender", template("x", { scripts: [{ name: "totals", source: "function before(data) {}" }] }), "script totals", /beforeRender/],
  ])("answers 400 naming %s and the line", async (_, job, path, message) => {
    const e = await rejected(runSandbox(job));
    expect(e.code).toBe("BAD_REQUEST");
    expect(e.message).toMatch(message);
    expect(e.details![0]!.path).toBe(path);
  });

  it("a failed run carries what it logged before the failure: the failing step's lines and the earlier steps'", async () => {
    const scripts = [{ name: "a", source: "function beforeRender(d) { console.log('a ran'); }" }];
    const cases: [SandboxJob, string, string[]][] = [
      [template("{{boom}}", { scripts, helpers: "function boom() { console.warn('boom called'); throw new Error('no'); }" }), "BAD_REQUEST", ["a ran", "boom called"]],
      [template("x", { scripts, helpers: "console.info('helpers loaded');\nthrow new Error('at the top');" }), "BAD_REQUEST", ["a ran", "helpers loaded"]],
      [template("x", { scripts: [...scripts, { name: "b", source: "console.log('b top');\nnull.x;\nfunction beforeRender() {}" }] }), "BAD_REQUEST", ["a ran", "b top"]],
      [template("{{note}}{{> me}}", { scripts, partials: { me: "x{{> me}}" }, helpers: "function note() { console.log('note'); return ''; }" }), "LIMIT_EXCEEDED", ["a ran", "note"]],
    ];
    for (const [job, code, lines] of cases) {
      const e = await rejected(runSandbox(job));
      expect(e.code, e.message).toBe(code);
      expect(e.console?.map((c) => c.message), e.message).toEqual(lines);
    }
    await stillWorks();
  });

  it("compileOnly checks every file's syntax and limits and runs nothing", async () => {
    const job: SandboxJob = {
      steps: [{ name: "template", source: "{{spin}}{{> row}}" }],
      partials: { row: "{{x}}" },
      helpers: "for (;;); function spin() { for (;;); }",
      scripts: [{ name: "s", source: "function beforeRender() { return new Promise(() => {}); }" }],
      data: {},
      compileOnly: true,
    };
    expect(await runSandbox(job)).toEqual({ outputs: {}, data: {}, console: [] });
    for (const [bad, path] of [
      [{ partials: { row: "{{#if}}" } } as Partial<SandboxJob>, "partial row"],
      [{ helpers: "function (" }, "helpers.js"],
      [{ scripts: [{ name: "s", source: "function beforeRender( {" }] }, "script s"],
      [{ steps: [{ name: "header", source: "{{/x}}" }] }, "header"],
      // Parsed, but refused by Handlebars' compiler: a partial takes one context argument.
      [{ partials: { row: "{{> cell a b}}" } }, "partial row"],
    ] as [Partial<SandboxJob>, string][]) {
      const e = await rejected(runSandbox({ ...job, ...bad }));
      expect(e.code).toBe("BAD_REQUEST");
      expect(e.details![0]!.path).toBe(path);
    }
  });

  it("helpers.js and scripts have Handlebars' runtime but not its compiler, which the checks of sources keep", async () => {
    const helpers = `function bold(s) { return new Handlebars.SafeString("<b>" + Handlebars.escapeExpression(s) + "</b>"); }
      function dynamic() { return Handlebars.compile("{{x}}")({ x: 1 }); }`;
    expect(await html("{{bold name}}", { helpers, data: { name: "<A&B>" } })).toBe("<b>&lt;A&amp;B&gt;</b>");
    const e = await rejected(runSandbox(template("{{dynamic}}", { helpers })));
    expect(e.code).toBe("BAD_REQUEST");
    expect(e.message).toMatch(/^template: Handlebars' compiler is not available to helpers\.js and scripts; a template chosen at render time is a partial: .* \(helpers\.js line 2\)$/);
    const script = await rejected(runSandbox(template("x", { scripts: [{ name: "s", source: "function beforeRender() { Handlebars.precompile('{{y}}'); }" }] })));
    expect(script.message).toMatch(/^script s: .*compiler is not available/);
    // What the message proposes instead (docs/api.md): a partial picked by name at render time.
    expect(await html('{{> (lookup . "which")}}', { partials: { a: "A{{x}}", b: "B" }, data: { which: "a", x: 1 } })).toBe("A1");
    // Publishing's check still compiles (in the compiler context, which no step's code reaches).
    expect(await runSandbox({ ...template("{{#each a}}{{/each}}"), compileOnly: true })).toEqual({ outputs: {}, data: {}, console: [] });
    expect((await rejected(runSandbox({ ...template("{{#each a}}"), compileOnly: true }))).message).toMatch(/^template: Parse error/);
    await stillWorks();
  });

  it("restricted (component headers and footers): built-ins only, no helpers.js, partials or log", async () => {
    const r = await runSandbox({ restricted: true, steps: [{ name: "composition.footer", source: "{{#each a}}{{this}}{{/each}} {{totalPages}}" }], data: { a: [1, 2] }, helpers: "function x() {}" });
    expect(r.outputs["composition.footer"]).toBe('12 <span class="totalPages"></span>');
    for (const source of ["{{x}}", "{{log 'a'}}", "{{> p}}"]) {
      const e = await rejected(runSandbox({ restricted: true, steps: [{ name: "composition.footer", source: source === "{{x}}" ? "{{x 1}}" : source }], data: {}, helpers: "function x() {}", partials: { p: "p" } }));
      expect(e.code).toBe("BAD_REQUEST");
      expect(e.message.startsWith("composition.footer: ")).toBe(true);
    }
  });
});

describe("escapes, each refused and leaving the next run unaffected", () => {
  it("constructor.constructor('return process')() reaches no Node: not from helpers, scripts or templates", async () => {
    // The classic escape: Function from any object's constructor, then the host's process.
    const probe = "(() => { try { return String(this.constructor.constructor('return process')()); } catch (e) { return e.message; } })() + ',' + typeof (0).constructor.constructor('return this')().require";
    const r = await runSandbox(
      template("{{probe}}|{{#with this.constructor}}{{constructor}}{{/with}}|{{lookup this 'constructor'}}|{{constructor.constructor}}", {
        helpers: `function probe() { return ${probe}; }`,
        scripts: [{ name: "s", source: `function beforeRender(d) { d.fromScript = ${probe}; }` }],
      }),
    );
    expect(r.outputs.template).toBe("process is not defined,undefined|||");
    expect(r.data).toEqual({ fromScript: "process is not defined,undefined" });
    await stillWorks();
  });

  it("the published Handlebars RCE template (the string.sub.apply gadget) runs nothing", async () => {
    const payload = `{{#with "s" as |string|}}{{#with "e"}}{{#with split as |conslist|}}{{this.pop}}{{this.push (lookup string.sub "constructor")}}{{this.pop}}
      {{#with string.split as |codelist|}}{{this.pop}}{{this.push "return typeof process === 'object' ? process.mainModule.require('child_process').execSync('id').toString() : 'no process';"}}{{this.pop}}
      {{#each conslist}}{{#with (string.sub.apply 0 codelist)}}[{{this}}]{{/with}}{{/each}}{{/with}}{{/with}}{{/with}}{{/with}}`;
    const out = await html(payload).catch((e: Error) => e.message);
    expect(out).not.toMatch(/uid=/);
    await stillWorks();
  });

  it("this.__proto__ in a template reads nothing", async () => {
    expect(await html("{{this.__proto__}}|{{#with this.__proto__}}{{constructor.name}}{{/with}}|{{__proto__.toString}}|{{this.__proto__.__defineGetter__}}", { data: { a: 1 } })).toBe("|||");
    await stillWorks();
  });

  it("prototype pollution through data and through helpers stays in its own step", async () => {
    const data = JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}');
    expect(await html("[{{polluted}}]", { data })).toBe("[]");
    const r = await runSandbox({
      helpers: "Object.prototype.polluted = 'yes'; Array.prototype.leak = 1; function seen() { return ({}).polluted; }",
      steps: [
        { name: "template", source: "{{seen}}" },
        { name: "footer", source: "[{{polluted}}]" },
      ],
      data: {},
    });
    // helpers.js runs again in each step's fresh context, so each step sees only its own pollution.
    expect(r.outputs).toEqual({ template: "yes", footer: "[]" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await stillWorks();
  });

  it("globals a run leaves are not there for the next run; the scripts' are the body's, not the header's", async () => {
    await runSandbox({
      helpers: "globalThis.leak = 'secret'; var leak2 = 'secret';",
      scripts: [{ name: "s", source: "function beforeRender() { globalThis.fromScript = 1; }" }],
      steps: [{ name: "template", source: "x" }],
      data: {},
    });
    const r = await runSandbox({
      scripts: [{ name: "s", source: "function beforeRender(d) { d.before = typeof fromScript; }" }],
      steps: [{ name: "template", source: "{{read}}" }],
      helpers: "function read() { return [typeof leak, typeof leak2, typeof fromScript].join(); }",
      data: {},
    });
    expect(r.outputs.template).toBe("undefined,undefined,undefined");
    // The scripts step's context (one of its own) saw nothing of the first run either.
    expect(r.data).toEqual({ before: "undefined" });
    // Issue 33's decision: the scripts and the body of one render share one fresh context; a header does not.
    const shared = await runSandbox({
      scripts: [{ name: "s", source: "function beforeRender() { globalThis.mine = 'set by the script'; }" }],
      steps: [
        { name: "template", source: "{{seen}}" },
        { name: "header", source: "{{seen}}" },
      ],
      helpers: "function seen() { return typeof mine === 'string' ? mine : 'nothing'; }",
      data: {},
    });
    expect(shared.outputs).toEqual({ template: "set by the script", header: "nothing" });
    await stillWorks();
  });

  it("a template compiled for one run serves the next runs of the same source, and no run's code can change what it compiles to", async () => {
    const source = "<b>{{name}}</b>{{> row}}";
    const partials = { row: "<i>{{name}}</i>" };
    // A run whose helpers.js and data try to change how the shared source compiles for the next runs.
    const tamper = `Handlebars.precompile = Handlebars.compile = Handlebars.template = function () { return function () { return "pwned"; }; };
      Object.prototype.main = function () { return "pwned"; };
      function noop() { return ""; }`;
    expect(await html(source, { partials, helpers: tamper, data: { name: "A" } })).toBe("<b>A</b><i>A</i>");
    for (const name of ["B", "C"]) expect(await html(source, { partials, data: { name } })).toBe(`<b>${name}</b><i>${name}</i>`);
    // The same text as a partial of one template and as another's body; restricted (a header) apart.
    expect(await html("{{> row}}", { partials: { row: source.replace("{{> row}}", "") }, data: { name: "D" } })).toBe("<b>D</b>");
    expect((await runSandbox({ restricted: true, steps: [{ name: "header", source: "<b>{{name}}</b>" }], data: { name: "E" } })).outputs.header).toBe("<b>E</b>");
    await stillWorks();
  });

  it("an infinite loop ends at 2 s of CPU with LIMIT_EXCEEDED; a workspace runs 2 at once and keeps 16 waiting, more answer 429 (busy)", async () => {
    // Three processes started first, so that the other workspace's run below waits for no process
    // to boot (on one core beside two spinning steps, a boot takes seconds).
    const busyFor = template("{{w}}", { helpers: "function w() { const end = Date.now() + 300; while (Date.now() < end); return 1; }" });
    await Promise.all(["a", "b", "c"].map((t) => runAsTenant(`ws-warm-${t}`, () => runSandbox(busyFor))));
    const spin = template("{{spin}}", { helpers: "function spin() { console.log('spinning'); for (;;); }" });
    const spins = Array.from({ length: 2 }, () => runAsTenant("ws-spinner", () => rejected(runSandbox(spin))));
    const waiting = Array.from({ length: 16 }, (_, i) => runAsTenant("ws-spinner", () => html("{{i}}", { data: { i } })));
    const busy = await runAsTenant("ws-spinner", () => rejected(runSandbox(template("x"))));
    expect(busy.code).toBe("RATE_LIMITED");
    expect(busy.status).toBe(429);
    expect(busy.headers).toBeUndefined();
    expect(busy.message).toBe("This workspace has 16 template sandbox jobs waiting already; retry in a moment");
    // Another workspace is not behind that queue: its run ends while both spins still run.
    let spinsEnded = false;
    void Promise.all(spins).then(() => (spinsEnded = true));
    expect(await runAsTenant("ws-other", () => html("{{x}}", { data: { x: "mine" } }))).toBe("mine");
    expect(spinsEnded).toBe(false);
    for (const e of await Promise.all(spins)) {
      expect(e.code).toBe("LIMIT_EXCEEDED");
      // Its 2 s of CPU, or on a machine too busy to give them (one core, the suite beside it) its 6 s.
      expect(e.message).toMatch(/^template: (used more than 2 s of CPU|ran longer than 6 s)/);
      // The step's isolate died with it; its lines were copied out as they were made.
      expect(e.console).toEqual([{ step: "template", level: "log", message: "spinning" }]);
    }
    expect(await Promise.all(waiting)).toEqual(Array.from({ length: 16 }, (_, i) => String(i)));
    await stillWorks();
  });

  it.each([
    ["deep recursion in a helper", template("{{r}}", { helpers: "function r() { return r() + 1; }" }), /calls nest too deeply/],
    ["a partial that includes itself", template("{{> me}}", { partials: { me: "x{{> me}}" } }), /calls nest too deeply/],
    ["a memory bomb", template("{{bomb}}", { helpers: "function bomb() { const a = []; for (;;) a.push(new Array(1e5).fill(1.5)); }" }), /more than 64 MiB/],
    ["a memory bomb in a script", template("x", { scripts: [{ name: "s", source: "function beforeRender() { let s = 'x'; for (;;) s = s + s; }" }] }), /64 MiB|largest string/],
    ["huge output", template("{{#each a}}{{{big}}}{{/each}}", { data: { a: [1, 2] }, helpers: "function big() { return 'x'.repeat(3_000_000); }" }), /more than 5,000,000 bytes of HTML/],
    ["a script that never resolves", template("x", { scripts: [{ name: "s", source: "function beforeRender() { return new Promise(() => {}); }" }] }), /never settles/],
  ])("%s: LIMIT_EXCEEDED", async (_, job, message) => {
    const e = await rejected(runSandbox(job));
    expect(e.code).toBe("LIMIT_EXCEEDED");
    expect(e.message).toMatch(message);
    await stillWorks();
  });
});

describe("data schemas applied in the sandbox", () => {
  it("travel with a render's steps (one job): the steps run only on data the schema admits", async () => {
    const schema = { type: "object", required: ["name"], properties: { name: { type: "string" } } };
    const job = (data: Record<string, unknown>): SandboxJob => ({
      ...template("Hi {{name}} {{extra}}", { scripts: [{ name: "s", source: "function beforeRender(d) { console.log('script ran'); d.extra = '!'; }" }] }),
      data: { ...data, added: 1 },
      check: { schema, draft: "2020-12", data },
    });
    const refused = await runSandbox(job({ name: 5 }));
    expect(refused.check).toEqual({ details: [{ path: "name", message: expect.stringContaining("string") }], more: false });
    // No step ran: no output, nothing logged.
    expect(refused.outputs).toEqual({});
    expect(refused.console).toEqual([]);
    const admitted = await runSandbox(job({ name: "Ann" }));
    expect(admitted.check).toBeUndefined();
    expect(admitted.outputs.template).toBe("Hi Ann !");
    expect(admitted.console).toEqual([{ step: "scripts", level: "log", message: "script ran" }]);
    // A schema that backtracks without end is the check's limit, named so.
    const slow = await rejected(runSandbox({ ...template("x"), check: { schema: { type: "string", pattern: "^(a+)+$" }, draft: "2020-12", data: `${"a".repeat(40)}b` } }));
    expect(slow.message).toBe("dataSchema: used more than 2 s of CPU");
  });

  it("answer the same violations as the interpreter in the console, capped at 100 with `more`, and name a schema that cannot be applied", async () => {
    const schema = {
      $id: "https://example.com/invoice",
      type: "object",
      required: ["customer", "total"],
      additionalProperties: false,
      properties: {
        customer: { type: "object", required: ["name"], properties: { name: { type: "string", pattern: "^[A-Z]" }, "a.b/c": { type: "number" }, mail: { format: "email" } } },
        total: { type: "number", minimum: 0 },
        lines: { type: "array", items: { $ref: "#/$defs/line" } },
        status: { anyOf: [{ const: "paid" }, { const: "open" }] },
      },
      $defs: { line: { $anchor: "line", type: "object", properties: { qty: { type: "integer" }, next: { $ref: "#line" } } } },
    };
    const bad = { customer: { name: "ann", "a.b/c": "x", mail: "nope" }, lines: [{ qty: 1.5 }, { qty: 2, next: { qty: "x" } }], status: "gone", extra: 1 };
    let inProcess: unknown;
    try {
      checkData(schema, bad);
    } catch (e) {
      inProcess = (e as { details: unknown }).details;
    }
    const r = await checkSchemaInSandbox(schema, "2020-12", bad);
    expect("details" in r && r.details).toEqual(inProcess);
    expect((inProcess as unknown[]).length).toBe(8);
    expect(await checkSchemaInSandbox(schema, "2020-12", { customer: { name: "Ann" }, total: 1, lines: [{ qty: 2, next: { qty: 3 } }] })).toEqual({ details: [], more: false });
    const many = await checkSchemaInSandbox({ additionalProperties: { type: "string" } }, "2020-12", Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, i])));
    expect("details" in many && many.details.length).toBe(100);
    expect("details" in many && many.more).toBe(true);
    expect(await checkSchemaInSandbox({ $defs: { a: { $ref: "#/$defs/a" } }, properties: { x: { $ref: "#/$defs/a" } } }, "2020-12", { x: 1 })).toEqual({ unusable: expect.stringContaining("loop") });
  });
});

describe("limits at their bounds", () => {
  const nest = (levels: number) => {
    let v: unknown = 1;
    for (let i = 0; i < levels; i++) v = { v };
    return v;
  };

  it("data nested 100 levels works, 101 answers 400 (checked before sending)", async () => {
    expect(await html("ok", { data: nest(100) })).toBe("ok");
    const e = await rejected(runSandbox(template("x", { data: nest(101) })));
    expect(e.code).toBe("BAD_REQUEST");
    expect(e.message).toMatch(/^data: nested more than 100/);
    const s = await rejected(runSandbox(template("x", { scripts: [{ name: "deep", source: "function beforeRender() { let v = 1; for (let i = 0; i < 101; i++) v = { v }; return v; }" }] })));
    expect(s.code).toBe("BAD_REQUEST");
    expect(s.message).toMatch(/nested more than 100/);
  });

  it("50,000 syntax nodes work, 50,001 answer LIMIT_EXCEEDED", async () => {
    // The program and 49,999 comments. why comments: Handlebars' compile time grows faster than
    // linearly with mustaches; 25,000 of them take longer than the 2 s a step has (docs/api.md).
    expect(await html("{{!c}}".repeat(49_999))).toBe("");
    const e = await rejected(runSandbox(template("{{!c}}".repeat(50_000))));
    expect(e.code).toBe("LIMIT_EXCEEDED");
    expect(e.message).toMatch(/50,000 syntax nodes/);
    await stillWorks();
  });

  it("blocks nested 100 deep work, 101 answer LIMIT_EXCEEDED", async () => {
    const blocks = (n: number) => "{{#if a}}".repeat(n) + "y" + "{{/if}}".repeat(n);
    expect(await html(blocks(100), { data: { a: 1 } })).toBe("y");
    const e = await rejected(runSandbox(template(blocks(101), { data: { a: 1 } })));
    expect(e.code).toBe("LIMIT_EXCEEDED");
    expect(e.message).toMatch(/nested more than 100 deep/);
  });

  it("8,000,000 bytes of source and data work, one more answers LIMIT_EXCEEDED", async () => {
    // {"s":"…"} is 8 bytes around the string.
    const data = (n: number) => ({ s: "é".repeat(n / 2) + "x".repeat(n % 2) });
    expect(await html("{{#if s}}ok{{/if}}", { data: data(8_000_000 - 8 - 18) })).toBe("ok");
    const e = await rejected(runSandbox(template("{{#if s}}ok{{/if}}", { data: data(8_000_000 - 8 - 18 + 1) })));
    expect(e.code).toBe("LIMIT_EXCEEDED");
    expect(e.message).toMatch(/more than 8,000,000 bytes/);
  });

  it("5,000,000 bytes of HTML work, one more answers LIMIT_EXCEEDED", async () => {
    const helpers = "function big(n) { return 'é'.repeat(Math.floor(n / 2)) + 'x'.repeat(n % 2); }";
    expect(Buffer.byteLength((await html("{{{big 5000000}}}", { helpers }))!)).toBe(5_000_000);
    const e = await rejected(runSandbox(template("{{{big 5000001}}}", { helpers })));
    expect(e.code).toBe("LIMIT_EXCEEDED");
    expect(e.message).toBe("template: more than 5,000,000 bytes of HTML");
    await stillWorks();
  });
});
