// The console's one voice for form errors: every server action's refusal (lib/console/action.ts)
// passes through here, so a field says "Enter a name." or "Use at most 200 characters." whichever
// schema or verb refused it. The API keeps its own wording (docs/api.md, Errors): programs read
// details[].path, and people read these.
import type { ZodError } from "zod";
import { flattenIssues, joinPath, type ErrorDetail } from "../errors";

type Issue = ZodError["issues"][number];

/** What a field is called in a sentence, from the last key of its path ("newPassword" → "password"). */
const nouns: Record<string, string> = {
  name: "name",
  email: "email address",
  password: "password",
  newPassword: "new password",
  currentPassword: "current password",
  confirm: "password again",
  url: "URL",
  bucket: "bucket name",
  accessKeyId: "access key ID",
  secretAccessKey: "secret access key",
  endpoint: "endpoint URL",
  region: "region",
  description: "description",
  locale: "locale",
  scopes: "scope",
  eventTypes: "event",
};

export function fieldNoun(path: readonly PropertyKey[] | string | undefined): string | undefined {
  const keys = typeof path === "string" ? path.split(".") : (path ?? []);
  const last = [...keys].reverse().find((k) => typeof k === "string" && !/^\d+$/.test(k));
  if (typeof last !== "string") return undefined;
  if (nouns[last]) return nouns[last];
  // widthMm → "width", folderId → "folder", prefix → "prefix"
  return last.replace(/(Mm|Id|Ms)$/, "").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase() || undefined;
}

const article = (noun: string) => (/^[aeiou]/i.test(noun) && !/^(URL|u[a-z])/.test(noun) ? `an ${noun}` : `a ${noun}`);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const list = (values: readonly unknown[]) => values.map((v) => String(v)).join(", ");

/** A message already written for people (a refinement's, a verb's) as a sentence: capital first, full stop last. */
export function asSentence(message: string): string {
  const t = message.trim();
  if (!t) return t;
  const s = t[0]!.toUpperCase() + t.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

/** zod's own wording (v4's English messages), which names types and operators rather than what to do. */
const zodWording = /^(Too small|Too big|Invalid|Unrecognized key|Expected|Input not instance)/;

/**
 * One issue as a plain sentence about the field at `path`: a schema's own message when it wrote one
 * (reworded as plainDetail does: "must be at most 64 characters" → "Use at most 64 characters."),
 * else a sentence from the issue's code.
 */
export function plainIssue(issue: Issue, path: readonly PropertyKey[] = issue.path): string {
  if (issue.code !== "unrecognized_keys" && issue.message && !zodWording.test(issue.message)) return plainDetail({ path: joinPath(path), message: issue.message }).message;
  const noun = fieldNoun(path);
  const enter = noun ? `Enter ${article(noun)}.` : "Fill in this field.";
  switch (issue.code) {
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string") return min <= 1 ? enter : `Use at least ${plural(min, "character")}.`;
      if (issue.origin === "array" || issue.origin === "set") return min <= 1 ? `Choose at least one${noun ? ` ${noun}` : ""}.` : `Choose at least ${min}.`;
      return issue.inclusive === false ? `Use a number greater than ${min}.` : `Use a number of at least ${min}.`;
    }
    case "too_big": {
      const max = Number(issue.maximum);
      if (issue.origin === "string") return `Use at most ${plural(max, "character")}.`;
      if (issue.origin === "array" || issue.origin === "set") return `Choose at most ${max}.`;
      if (issue.origin === "file") return `Choose a file of at most ${max} bytes.`;
      return issue.inclusive === false ? `Use a number less than ${max}.` : `Use a number of at most ${max}.`;
    }
    case "invalid_type":
      // why the message too: zod keeps the input out of an issue unless asked (reportInput); its default message says what arrived.
      if ("input" in issue ? (issue.input ?? "") === "" : /received (undefined|null)$/.test(issue.message)) return enter;
      if (issue.expected === "number" || issue.expected === "int") return "Enter a number.";
      return noun ? `Enter a valid ${noun}.` : "Enter a valid value.";
    case "invalid_format":
      if (issue.format === "email") return "Enter an email address such as ada@example.com.";
      if (issue.format === "url") return "Enter a URL such as https://example.com/hooks.";
      // A pattern's own message says what it wants (zod's default names the regular expression).
      return issue.message && !/^Invalid /.test(issue.message) ? asSentence(issue.message) : noun ? `Enter a valid ${noun}.` : "Enter a valid value.";
    case "invalid_value":
      return issue.values.length === 1 ? `Use ${String(issue.values[0])}.` : `Choose one of: ${list(issue.values)}.`;
    case "not_multiple_of":
      return `Use a multiple of ${String(issue.divisor)}.`;
    case "unrecognized_keys":
      return `${asSentence(list(issue.keys)).slice(0, -1)} ${issue.keys.length === 1 ? "is not a field" : "are not fields"} of this form.`;
    case "invalid_union":
    case "invalid_key":
    case "invalid_element":
      return noun ? `Enter a valid ${noun}.` : "Enter a valid value.";
    default:
      // custom (a refinement): its message is written for people.
      return asSentence(issue.message);
  }
}

/**
 * A verb's detail in the same voice: the domain writes fragments after the path ("name: must be at
 * most 200 characters", "is required"); the common ones become the sentences plainIssue writes.
 */
export function plainDetail(detail: ErrorDetail): ErrorDetail {
  const m = detail.message.trim();
  const noun = fieldNoun(detail.path);
  const enter = noun ? `Enter ${article(noun)}.` : "Fill in this field.";
  let sentence: string;
  let match: RegExpMatchArray | null;
  if (/^(is required|must not be empty|is empty|give the \w+ a name)$/i.test(m) || /^Too small: expected string to have >=1 characters?$/.test(m)) sentence = enter;
  else if ((match = m.match(/^(?:must be at most|Too big: expected string to have <=)\s*(\d+) characters?$/i))) sentence = `Use at most ${plural(Number(match[1]), "character")}.`;
  else if ((match = m.match(/^(?:must be at least|Too small: expected string to have >=)\s*(\d+) characters?$/i))) sentence = `Use at least ${plural(Number(match[1]), "character")}.`;
  else if ((match = m.match(/^is required( .+)$/i))) sentence = `Enter ${noun ? article(noun) : "a value"}${match[1]}.`;
  else if ((match = m.match(/^must be (an? (?:email address|URL)\b.*)$/i))) sentence = asSentence(`Enter ${match[1]}`);
  else if ((match = m.match(/^must be ([\w-]+(?:, [\w-]+)* or [\w-]+)$/i))) sentence = `Choose ${match[1]}.`;
  else if ((match = m.match(/^must be (an? .+|at (?:least|most) .+|one of .+|between .+|\d.+)$/i))) sentence = asSentence(`Use ${match[1]}`);
  else sentence = asSentence(m);
  return detail.path === undefined ? { message: sentence } : { path: detail.path, message: sentence };
}

/** The message over a form: the first problem, naming its field unless the sentence already does. */
export function formMessage(details: readonly ErrorDetail[], fallback: string): string {
  const first = details[0];
  if (!first) return asSentence(fallback);
  const noun = fieldNoun(first.path);
  const head = noun && !first.message.toLowerCase().includes(noun.toLowerCase()) ? `${noun[0]!.toUpperCase()}${noun.slice(1)}: ${first.message[0]!.toLowerCase()}${first.message.slice(1)}` : first.message;
  return details.length > 1 ? `${head} ${plural(details.length - 1, "more problem")} below.`.replace("1 more problem below", "One more problem below") : head;
}

/** A ZodError from a form's input as the details and message a form shows. */
export function formErrorsFromZod(err: ZodError): { message: string; details: ErrorDetail[] } {
  const details: ErrorDetail[] = flattenIssues(err.issues).map(({ path, issue }) => {
    const at = joinPath(path);
    return at ? { path: at, message: plainIssue(issue, path) } : { message: plainIssue(issue, path) };
  });
  return { message: formMessage(details, "Check the form."), details };
}
