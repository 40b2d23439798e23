// @ts-check
// The code of Folio's own that runs INSIDE each sandbox context (V8 isolate, lib/sandbox/host.mjs),
// next to Handlebars' runtime: it is part of the isolate snapshot, so every fresh context starts
// with it. Templates arrive precompiled; the compiler is added only to the compiler context, where
// no caller code runs (precompile).
// Nothing here is trusted by the host: a caller's helpers or scripts run in the same context and
// may replace any of it; the host checks types and caps sizes of what comes back. What it guards
// is the caller's own step (error messages that name the file and line, today's rules of the
// restricted header/footer mode), not the server.
//
// Plain ES2022, no imports: there is no module system, no timer, no I/O in the isolate (and, but
// in the compiler context, no Handlebars compiler: see noCompiler).
(function () {
  "use strict";
  const g = globalThis;
  const HB = g.Handlebars;
  /**
   * Handlebars with its compiler: only the compiler context has it (host.mjs adds it there after
   * this harness was made, so it is read when used, not captured now).
   */
  function compilerHandlebars(file) {
    const full = g.Handlebars;
    if (!full || typeof full.precompile !== "function" || full.precompile === noCompiler) throw new Fault("INTERNAL", file, "templates are compiled in the compiler context only");
    return full;
  }
  /**
   * What a step's helpers.js or script finds instead of Handlebars' compiler (a step has the runtime
   * only): a clear refusal rather than "not a function".
   */
  function noCompiler() {
    throw new Error("Handlebars' compiler is not available to helpers.js and scripts; a template chosen at render time is a partial: {{> (lookup . \"partialName\")}}");
  }
  if (HB && typeof HB.compile !== "function") for (const name of ["compile", "precompile", "parse"]) HB[name] = noCompiler;
  const JSONSCHEMA = g.__folioJsonSchema;
  // The rules that make the interpreter's errors a person's violations (lib/sandbox/violations.js,
  // which the console imports too), given by host.mjs before this harness; taken and removed.
  const schemaViolations = g.__folioViolations;
  delete g.__folioViolations;
  // What a step has no use for and an attacker has (issue 33): code that runs after the step's last
  // call, outside its limits (FinalizationRegistry's callbacks; WeakRef, their companion), gone from
  // the snapshot and so from every context made from it; and memory outside the heap's limit
  // (WebAssembly.Memory, SharedArrayBuffer) and waits (Atomics), which V8 adds to each context as
  // it is made (a snapshot without them does not start), removed by begin() before any caller code.
  for (const name of ["FinalizationRegistry", "WeakRef"]) delete g[name];
  const PER_CONTEXT = ["WebAssembly", "SharedArrayBuffer", "Atomics"];
  // why captured now: the caller may replace JSON, String or console in its context; this harness
  // keeps the originals of its own context (each context gets its own copy of the snapshot).
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const toStr = String;
  const ownNames = Object.getOwnPropertyNames;
  const isArray = Array.isArray;

  // The spec's limits of a step: lib/sandbox/index.ts's table, given by host.mjs before this
  // harness (folio-limits.js), taken here and removed from the global object.
  const L = g.__folioLimits;
  delete g.__folioLimits;
  const MAX_NODES = L.syntaxNodes;
  const MAX_NESTING = L.nesting;
  const MAX_CONSOLE = L.consoleCalls;
  const MAX_CONSOLE_CHARS = L.consoleChars;
  // The sizes the host refuses too, checked here first: a string is refused before it is copied
  // out (a copy flattens it, and a template repeating a long value is short in the heap but not so
  // flattened). Characters count at most as bytes: past these in characters, past them in bytes.
  const MAX_OUT_CHARS = L.outBytes;
  const MAX_DATA_CHARS = L.inBytes;
  /** 5000000 as "5,000,000", as the host's messages write it. */
  const grouped = (n) => toStr(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  // The restricted (component header/footer) mode's own rules, as before the sandbox.
  const RESTRICTED_MAX_ITERATIONS = 10000;
  const RESTRICTED_MAX_OUTPUT = 1000000;

  /** A fault the harness reports: BAD_REQUEST or LIMIT_EXCEEDED, naming the file it is in. */
  class Fault {
    constructor(code, file, message) {
      this.code = code;
      this.file = file;
      this.message = message;
    }
  }

  /**
   * @typedef {{ step: string, level: string, message: string }} ConsoleLine
   * @typedef {{ done: boolean, value: unknown, error: Fault | undefined }} PendingPromise
   * @type {{ step: string, console: ConsoleLine[], calls: number, data: any, pending: PendingPromise | undefined, tap: ((step: string, level: string, message: string) => void) | undefined, next: { step: string, tap: unknown } | undefined }}
   */
  const state = { step: "", console: [], calls: 0, data: undefined, pending: undefined, tap: undefined, next: undefined };

  function text(v) {
    try {
      if (typeof v === "string") return v;
      if (v === undefined) return "undefined";
      if (typeof v === "function") return "[function]";
      if (typeof v === "object" && v !== null) {
        if (v instanceof Error) return toStr(v.stack || v.message);
        const s = stringify(v);
        return s === undefined ? toStr(v) : s;
      }
      return toStr(v);
    } catch {
      return "[unprintable]";
    }
  }

  function logger(level) {
    return function (...args) {
      state.calls++;
      if (state.console.length >= MAX_CONSOLE) return;
      let message = args.map(text).join(" ");
      if (message.length > MAX_CONSOLE_CHARS) message = message.slice(0, MAX_CONSOLE_CHARS);
      state.console.push({ step: state.step, level, message });
      // The host's copy as it happens: a step ended at a limit dies with its context, its lines with it.
      if (state.tap) {
        try {
          state.tap(state.step, level, message);
        } catch {
          // the host's copy is a courtesy; the step's own list above is what a normal run answers
        }
      }
    };
  }
  /** @type {any} */ (g).console = { log: logger("log"), info: logger("info"), warn: logger("warn"), error: logger("error"), debug: logger("debug") };

  /** The first line of a caller's file in a stack ("helpers.js:3:9", "script totals:2:1"). */
  function where(e) {
    let stack = "";
    try {
      stack = toStr(e && e.stack);
    } catch {
      return "";
    }
    const m = /(helpers\.js|script [^\n:()]+|partial [^\n:()]+):(\d+):\d+/.exec(stack);
    return m ? ` (${m[1]} line ${m[2]})` : "";
  }

  function describe(e) {
    try {
      if (e && typeof e === "object" && "message" in e) {
        const name = typeof e.name === "string" && e.name !== "Error" ? `${e.name}: ` : "";
        return `${name}${toStr(e.message)}${where(e)}`;
      }
      return toStr(e);
    } catch {
      return "an error that could not be read";
    }
  }

  /** Errors while a step runs: limits (call stack, string length) or the caller's fault. */
  function classify(e, file) {
    if (e instanceof Fault) return e;
    if (e instanceof RangeError) {
      const m = toStr(e.message);
      if (/call stack/i.test(m)) return new Fault("LIMIT_EXCEEDED", file, "calls nest too deeply (a partial or helper that calls itself without end?)");
      if (/string length|array length|allocation/i.test(m)) return new Fault("LIMIT_EXCEEDED", file, "the output grew past the largest string the engine holds");
    }
    // isolated-vm refuses to compile code longer than an eighth of the isolate's memory limit:
    // Handlebars compiles each template to a function, and a very large template hits that.
    if (e instanceof EvalError && /code generation/i.test(toStr(e.message))) return new Fault("LIMIT_EXCEEDED", file, "the template compiles to more code than the sandbox allows");
    return new Fault("BAD_REQUEST", file, describe(e));
  }

  // why the console with every failure: what the step logged before it failed is what its author needs to see.
  function fail(f) {
    return { error: { code: f.code, file: f.file, message: f.message }, console: state.console, calls: state.calls };
  }
  /**
   * A refusal of precompile(), in the compiler context that every job's compiling shares:
   * nothing of the context's state goes with it (no console: no caller code runs there).
   */
  function failCompiling(f) {
    return { error: { code: f.code, file: f.file, message: f.message } };
  }

  /** Counts the syntax nodes of a parsed template and refuses past the limits. */
  function measure(ast, file, budget, restricted) {
    const NESTING = { BlockStatement: 1, PartialBlockStatement: 1, DecoratorBlock: 1, SubExpression: 1 };
    /** @type {[any, number][]} */
    const stack = [[ast, 0]];
    while (stack.length) {
      const [node, depth] = /** @type {[any, number]} */ (stack.pop());
      if (++budget.nodes > MAX_NODES) throw new Fault("LIMIT_EXCEEDED", file, `more than ${MAX_NODES.toLocaleString("en-US")} syntax nodes in this step`);
      if (restricted) {
        const line = node.loc ? node.loc.start.line : "?";
        if (node.type === "PartialStatement" || node.type === "PartialBlockStatement") throw new Fault("BAD_REQUEST", file, `partials are not available (line ${line})`);
        if (node.type === "Decorator" || node.type === "DecoratorBlock") throw new Fault("BAD_REQUEST", file, `decorators and inline partials are not available (line ${line})`);
      }
      const d = depth + (NESTING[node.type] || 0);
      if (d > MAX_NESTING) throw new Fault("LIMIT_EXCEEDED", file, `blocks and subexpressions nested more than ${MAX_NESTING} deep (line ${node.loc ? node.loc.start.line : "?"})`);
      for (const key in node) {
        if (key === "loc" || key === "strip" || key === "openStrip" || key === "closeStrip" || key === "inverseStrip") continue;
        const v = node[key];
        if (v && typeof v === "object") {
          if (isArray(v)) {
            for (const x of v) if (x && typeof x === "object" && typeof x.type === "string") stack.push([x, d]);
          } else if (typeof v.type === "string") stack.push([v, d]);
          else if (key === "hash" || key === "pairs") stack.push([v, d]);
        }
      }
    }
  }

  function parseTemplate(hb, source, file, budget, restricted) {
    // Refused before parsing when the source alone shows the limit passed: each "{{" opens a
    // statement or closes one, and a statement opened is a node, so there are at least half as
    // many nodes as "{{" (but for "{{" written inside a raw block or escaped, which a template would
    // need 100,000 of). why: parsing 50,000 nodes takes half a second of CPU, four times that on a
    // slow or busy machine, and the answer must be this limit, not the step's 2 s of CPU.
    let braces = 0;
    for (let at = source.indexOf("{{"); at !== -1; at = source.indexOf("{{", at + 2)) braces++;
    if (budget.nodes + Math.ceil(braces / 2) > MAX_NODES) throw new Fault("LIMIT_EXCEEDED", file, `more than ${MAX_NODES.toLocaleString("en-US")} syntax nodes in this step`);
    let ast;
    try {
      ast = hb.parse(source);
    } catch (e) {
      throw new Fault("BAD_REQUEST", file, toStr(e && /** @type {Error} */ (e).message));
    }
    measure(ast, file, budget, restricted);
    return ast;
  }

  function readData(json) {
    return json === undefined ? {} : parse(json);
  }

  /**
   * Starts a step: its name (for the console), data, and the host's function that copies console
   * lines as they are made. `nextStep` and `nextTap`: the scripts' step only, the body step that
   * follows in this context (endScripts begins it).
   */
  function begin(step, dataJson, tap, nextStep, nextTap) {
    for (const name of PER_CONTEXT) delete g[name];
    // A body step may follow the scripts in their context (host.mjs, runScripts): its console
    // starts empty, the scripts' lines already taken by the host.
    state.console = [];
    state.calls = 0;
    state.pending = undefined;
    state.step = step;
    state.data = readData(dataJson);
    state.tap = typeof tap === "function" ? tap : undefined;
    state.next = typeof nextStep === "string" ? { step: nextStep, tap: nextTap } : undefined;
  }

  /** The names on the global object before any caller code: helpers.js adds to them. */
  const baseline = new Set(ownNames(g));

  /** A restricted Handlebars: the built-in helpers but log, pageNumber and totalPages, counted each. */
  function restrictedInstance() {
    const hb = HB.create();
    hb.unregisterHelper("log");
    hb.unregisterDecorator("inline");
    const builtinEach = hb.helpers.each;
    let iterations = 0;
    hb.registerHelper("each", /** @this {unknown} */ function (context, options) {
      let produced = 0;
      const fn = (item, runtime) => {
        if (++iterations > RESTRICTED_MAX_ITERATIONS) throw new Fault("LIMIT_EXCEEDED", state.step, `more than ${RESTRICTED_MAX_ITERATIONS.toLocaleString("en-US")} each iterations`);
        const out = options.fn(item, runtime);
        produced += out.length;
        if (produced > RESTRICTED_MAX_OUTPUT) throw new Fault("LIMIT_EXCEEDED", state.step, `longer than ${RESTRICTED_MAX_OUTPUT.toLocaleString("en-US")} characters`);
        return out;
      };
      return builtinEach.call(this, context, Object.assign({}, options, { fn }));
    });
    return hb;
  }

  const RESTRICTED_OPTIONS = {
    knownHelpersOnly: true,
    knownHelpers: { log: false, helperMissing: false, blockHelperMissing: false, pageNumber: true, totalPages: true },
  };
  const RUNTIME = { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false };

  /** A Handlebars for a step: restricted or not, with pageNumber/totalPages, and helpers.js's functions. */
  function stepInstance(helpers, restricted) {
    const hb = restricted ? restrictedInstance() : HB.create();
    // why: Chromium fills these spans with the page number and count; as helpers they work inside any block.
    hb.registerHelper("pageNumber", () => new hb.SafeString('<span class="pageNumber"></span>'));
    hb.registerHelper("totalPages", () => new hb.SafeString('<span class="totalPages"></span>'));
    if (helpers && !restricted) {
      for (const name of ownNames(g)) {
        if (baseline.has(name)) continue;
        const fn = g[name];
        if (typeof fn === "function") hb.registerHelper(name, fn);
      }
    }
    return hb;
  }

  /** Registers a compiled partial, wrapped so that Handlebars' own errors in it name it. */
  function addPartial(hb, name, compiled) {
    const pfile = `partial ${name}`;
    hb.registerPartial(name, function (context, options) {
      try {
        return compiled(context, options);
      } catch (caught) {
        const e = /** @type {any} */ (caught);
        if (e instanceof Fault || e instanceof RangeError) throw e;
        if (e instanceof HB.Exception && !e.__folioNamed) {
          e.__folioNamed = true;
          e.message = `${pfile}: ${e.message}`;
        }
        throw e;
      }
    });
  }

  /** Runs a step's compiled template on the data begin() read. */
  function produce(compiled, file, restricted) {
    const data = state.data;
    const context = restricted && (typeof data !== "object" || data === null || isArray(data)) ? {} : data;
    const html = compiled(context, RUNTIME);
    if (typeof html !== "string") throw new Fault("BAD_REQUEST", file, "the template did not produce text");
    if (restricted && html.length > RESTRICTED_MAX_OUTPUT) throw new Fault("LIMIT_EXCEEDED", file, `longer than ${RESTRICTED_MAX_OUTPUT.toLocaleString("en-US")} characters`);
    if (html.length > MAX_OUT_CHARS) throw new Fault("LIMIT_EXCEEDED", file, `more than ${grouped(MAX_OUT_CHARS)} bytes of HTML`);
    return { html, console: state.console, calls: state.calls };
  }

  /**
   * Parses and compiles one file to Handlebars' precompiled form (JavaScript text) and counts its
   * syntax nodes, running nothing of the caller's. Called only in a context where no caller code
   * ever runs (host.mjs's compiler context), so what it returns depends on `source` alone and can
   * be reused by any later step of the same source.
   */
  function precompile(file, source, restricted) {
    try {
      const hb = compilerHandlebars(file).create();
      const budget = { nodes: 0 };
      const ast = parseTemplate(hb, toStr(source), file, budget, restricted);
      return { spec: hb.precompile(ast, restricted ? RESTRICTED_OPTIONS : {}), nodes: budget.nodes };
    } catch (e) {
      return failCompiling(classify(e, file));
    }
  }

  /**
   * Precompiled templates this context was given (host.mjs runs `__folio.spec(key, {...})` for each).
   * why an object without a prototype, not a Map: helpers.js runs before these calls in the same
   * context and may replace Map.prototype.set; a plain property assignment calls nothing of it.
   * Keys are sha256 in base64url, never "__proto__".
   */
  const specs = Object.create(null);
  const has = Object.hasOwn; // captured: no lookup through a prototype the caller may change
  function spec(key, value) {
    specs[toStr(key)] = value;
  }

  /**
   * Renders the step's template, as precompile() made it, with the data begin() read: given as spec
   * keys, the template's and each partial's by name; `helpers` whether helpers.js ran in this
   * context (its new global functions become helpers).
   */
  function renderSpecs(templateKey, partialKeys, helpers, restricted) {
    const file = state.step;
    try {
      const hb = stepInstance(helpers, restricted);
      const compiledOf = (key, f) => {
        if (!has(specs, key)) throw new Fault("BAD_REQUEST", f, "the step's compiled template is missing");
        return hb.template(specs[key]);
      };
      if (!restricted && partialKeys) for (const name of ownNames(partialKeys)) addPartial(hb, name, compiledOf(partialKeys[name], `partial ${name}`));
      return produce(compiledOf(templateKey, file), file, restricted);
    } catch (e) {
      return fail(classify(e, file));
    }
  }

  /**
   * Takes the beforeRender the script just evaluated returned (or refuses a script without one),
   * and calls it with the data. A promise settles into state.pending; settled() reads it once
   * the isolate's microtasks have run (there are no timers: a promise still pending then never settles).
   */
  function callBeforeRender(file, fn, last) {
    try {
      if (typeof fn !== "function") throw new Fault("BAD_REQUEST", file, "the script must define a function beforeRender(data)");
      const data = state.data;
      const out = fn(data);
      if (out && typeof out.then === "function") {
        /** @type {PendingPromise} */
        const p = { done: false, value: undefined, error: undefined };
        state.pending = p;
        out.then(
          (v) => {
            p.done = true;
            p.value = v;
          },
          (e) => {
            p.done = true;
            p.error = classify(e, file);
          },
        );
        return { ok: true, pending: true };
      }
      if (out !== undefined) state.data = out;
      state.pending = undefined;
      // A beforeRender that returned (no promise) is done: the last one ends the scripts in this
      // same call (one crossing fewer; work it started without returning its promise is not waited for).
      if (last) return endScripts();
      return { ok: true, pending: false };
    } catch (e) {
      return fail(classify(e, file));
    }
  }

  function settled(file) {
    const p = state.pending;
    state.pending = undefined;
    if (!p) return { ok: true };
    if (!p.done) return fail(new Fault("LIMIT_EXCEEDED", file, "beforeRender returned a promise that never settles"));
    if (p.error) return fail(p.error);
    if (p.value !== undefined) state.data = p.value;
    return { ok: true };
  }

  /** The scripts' data as JSON for the next steps; the body step that follows in this context begun (begin's `nextStep`). */
  function endScripts() {
    const nextStep = state.next?.step;
    const nextTap = state.next?.tap;
    try {
      const json = stringify(state.data === undefined ? {} : state.data);
      if (typeof json !== "string") throw new Fault("BAD_REQUEST", "scripts", "beforeRender left data that is not JSON");
      if (json.length > MAX_DATA_CHARS) throw new Fault("LIMIT_EXCEEDED", "scripts", `beforeRender left more than ${grouped(MAX_DATA_CHARS)} bytes of data`);
      const result = { data: json, console: state.console, calls: state.calls };
      // The body step follows in this context (host.mjs, runScripts): begun here, as begin() would,
      // with the data as the JSON the host keeps.
      if (typeof nextStep === "string") begin(nextStep, json, nextTap);
      return result;
    } catch (e) {
      const f = e instanceof Fault ? e : e instanceof RangeError ? new Fault("BAD_REQUEST", "scripts", "beforeRender left data nested too deeply") : new Fault("BAD_REQUEST", "scripts", `beforeRender left data that is not JSON: ${describe(e)}`);
      return fail(f);
    }
  }

  /**
   * Checks data against a data schema with the interpreter: { details, more } as the console
   * words them (schemaViolations), or { unusable } when the schema cannot be applied to this
   * data. Runs under the step's CPU and memory limits like any step: a schema's regular
   * expression that backtracks without end is ended there.
   */
  function validate(schemaJson, dataJson, draft) {
    state.step = "dataSchema";
    let errors;
    try {
      const schema = parse(schemaJson);
      const data = dataJson === undefined ? undefined : parse(dataJson);
      errors = new JSONSCHEMA.Validator(schema, draft, false).validate(data).errors;
    } catch (e) {
      if (e instanceof Fault) return fail(e);
      // why: saves refuse schemas that fail on trial data; data that reaches a loop the trials missed lands here.
      return { unusable: e instanceof RangeError ? "its references loop without reading the data" : toStr(e && /** @type {Error} */ (e).message).split("\n")[0] };
    }
    return schemaViolations(errors);
  }

  function consoleNow() {
    return { console: state.console, calls: state.calls };
  }

  // why not writable: caller code of the same step could still shadow it with a lexical binding,
  // which only breaks its own step; the host checks everything it gets back.
  Object.defineProperty(g, "__folio", { value: Object.freeze({ begin, precompile, spec, renderSpecs, validate, callBeforeRender, settled, endScripts, consoleNow }), enumerable: false });
})();
