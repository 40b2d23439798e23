/**
 * The Handlebars page header and footer of a composition (spec: Composition > header, footer). They
 * run in Folio's own process, so they get a locked-down Handlebars: only the built-in helpers if,
 * unless, each, with and lookup; no partials or decorators; prototype access denied (the Handlebars
 * default); bounded iterations and output.
 */
import Handlebars from "handlebars";
import { AppError, limitExceeded } from "../errors";

const MAX_ITERATIONS = 10_000;
const MAX_OUTPUT_CHARS = 1_000_000;
const MAX_CACHED = 200;

const COMPILE_OPTIONS: CompileOptions = {
  knownHelpersOnly: true,
  // why: these built-ins would be "known" by default; refused, a call to one fails at compile.
  knownHelpers: { log: false, helperMissing: false, blockHelperMissing: false, pageNumber: true, totalPages: true },
  strict: false,
  noEscape: false,
};

// The Handlebars default (prototype properties and methods denied), stated explicitly: otherwise
// Handlebars logs each denied name to the console.
const DENY_PROTOTYPES: Handlebars.RuntimeOptions = { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false };

/** The render under way and its `each` iterations so far (rendering is synchronous: one at a time). */
const run = { path: "", iterations: 0 };

const hb = Handlebars.create();
hb.unregisterHelper("log");
hb.unregisterDecorator("inline");
// why: Chromium fills these spans with the page number and count; as helpers they work inside any block.
hb.registerHelper("pageNumber", () => new hb.SafeString('<span class="pageNumber"></span>'));
hb.registerHelper("totalPages", () => new hb.SafeString('<span class="totalPages"></span>'));
const builtinEach = hb.helpers.each!;
// why: `each` is the only way a template multiplies its output (mustache sections over arrays call
// it too), so it counts every iteration of the render and the output of each loop.
hb.registerHelper("each", function (this: unknown, context: unknown, options: Handlebars.HelperOptions) {
  let produced = 0;
  const fn: Handlebars.TemplateDelegate = (item, runtime) => {
    if (++run.iterations > MAX_ITERATIONS) throw limitExceeded(`${run.path}: more than ${MAX_ITERATIONS.toLocaleString("en-US")} each iterations`);
    const out = options.fn(item, runtime);
    produced += out.length;
    if (produced > MAX_OUTPUT_CHARS) throw tooLong(run.path);
    return out;
  };
  return builtinEach.call(this, context, { ...options, fn });
});

const tooLong = (path: string) => limitExceeded(`${path}: longer than ${MAX_OUTPUT_CHARS.toLocaleString("en-US")} characters`);

/** A fault of the template source, answered as 400 naming the header or footer. */
class TemplateFault extends Error {}

/** Partials and decorators (inline partials among them) are not available: found in the syntax tree. */
class RefuseDirectives extends Handlebars.Visitor {
  PartialStatement(node: hbs.AST.PartialStatement): void {
    throw new TemplateFault(`partials are not available (line ${node.loc.start.line})`);
  }
  PartialBlockStatement(node: hbs.AST.PartialBlockStatement): void {
    throw new TemplateFault(`partials are not available (line ${node.loc.start.line})`);
  }
  DecoratorBlock(node: hbs.AST.DecoratorBlock): void {
    throw new TemplateFault(`decorators and inline partials are not available (line ${node.loc.start.line})`);
  }
  Decorator(node: hbs.AST.Decorator): void {
    throw new TemplateFault(`decorators and inline partials are not available (line ${node.loc.start.line})`);
  }
}

/** Compiled templates by source; the oldest entry leaves first. */
const compiled = new Map<string, Handlebars.TemplateDelegate>();

function compile(source: string): Handlebars.TemplateDelegate {
  let template = compiled.get(source);
  if (template) return template;
  let ast: hbs.AST.Program;
  try {
    ast = hb.parse(source);
  } catch (e) {
    throw new TemplateFault(e instanceof Error ? e.message : String(e)); // a syntax error
  }
  new RefuseDirectives().accept(ast);
  // Compiling is lazy in Handlebars: unknown helpers surface on the first call, as a Handlebars.Exception.
  template = hb.compile(source, COMPILE_OPTIONS);
  if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value as string);
  compiled.set(source, template);
  return template;
}

/**
 * Renders a header or footer with the caller's data. `{{x}}` escapes data values; `{{{x}}}` is the
 * template author's choice. Throws BAD_REQUEST naming composition.header or composition.footer for
 * a template error, LIMIT_EXCEEDED past 10,000 iterations or 1,000,000 characters.
 */
export function renderMarginTemplate(source: string, data: unknown, where: "header" | "footer"): string {
  const path = `composition.${where}`;
  // The helpers pageNumber and totalPages shadow data fields of the same names.
  const context = isObject(data) ? data : {};
  run.path = path;
  run.iterations = 0;
  let out: string;
  try {
    out = compile(source)(context, DENY_PROTOTYPES);
  } catch (e) {
    if (e instanceof AppError) throw e;
    // A string past V8's maximum length (the output ran away outside any each loop), or blocks
    // nested deeper than the call stack.
    if (e instanceof RangeError) {
      throw /string length/i.test(e.message) ? tooLong(path) : limitExceeded(`${path}: blocks nest too deeply`);
    }
    // Compile and helper-argument errors are Handlebars.Exceptions; a built-in helper called
    // without its arguments fails with a TypeError. All are the template's.
    if (e instanceof TemplateFault || e instanceof Handlebars.Exception || e instanceof TypeError) {
      const message = (e as Error).message;
      throw new AppError("BAD_REQUEST", `${path}: ${message}`, { details: [{ path, message }] });
    }
    throw e;
  }
  if (out.length > MAX_OUTPUT_CHARS) throw tooLong(path);
  // why: the renderer turns the caller-HTML placeholders {{pageNumber}} and {{totalPages}} into page
  // numbers; a data value reading "{{totalPages}}" must stay text, so no "{{" leaves this step.
  return out.replaceAll("{{", "{&#123;");
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
