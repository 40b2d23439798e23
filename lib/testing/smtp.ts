import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { SMTPServer } from "smtp-server";

/** A message as it arrived at the test SMTP server, decoded enough to read. */
export type ReceivedMail = {
  from: string;
  to: string[];
  /** The credentials the client authenticated with. */
  user?: string;
  subject: string;
  text: string;
  html: string;
  raw: string;
};

export type TestSmtp = {
  url: string;
  port: number;
  messages: ReceivedMail[];
  /** Waits for the first message to `to` (and matching `match`) and returns it. */
  waitFor: (to: string, match?: (m: ReceivedMail) => boolean, timeoutMs?: number) => Promise<ReceivedMail>;
  /** Refuses every message from now on with a 550 (a mail server that is down for mail). */
  refuseAll: (refuse?: boolean) => void;
  stop: () => Promise<void>;
};

/**
 * A real SMTP server on loopback (smtp-server from nodemailer's authors), with AUTH PLAIN/LOGIN
 * and no TLS, recording what arrives. `url` is what SMTP_URL would be set to.
 */
export async function startTestSmtp(
  credentials = { user: "folio", pass: "mail-secret" },
  /** Also writes each message as <n>.json into this folder (for readers in other processes, such as Playwright's workers). */
  saveTo?: string,
): Promise<TestSmtp> {
  if (saveTo) fs.mkdirSync(saveTo, { recursive: true });
  const messages: ReceivedMail[] = [];
  let refuse = false;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === credentials.user && auth.password === credentials.pass) return cb(null, { user: auth.username });
      cb(new Error("Invalid username or password"));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (refuse) {
          const err = new Error("Mailbox unavailable") as Error & { responseCode: number };
          err.responseCode = 550;
          return cb(err);
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        const mail: ReceivedMail = {
          ...parse(raw),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === "string" ? session.user : undefined,
          raw,
        };
        messages.push(mail);
        if (saveTo) fs.writeFileSync(path.join(saveTo, `${Date.now()}-${messages.length}.json`), JSON.stringify(mail));
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://${credentials.user}:${credentials.pass}@127.0.0.1:${port}`,
    port,
    messages,
    refuseAll: (r = true) => {
      refuse = r;
    },
    waitFor: async (to, match = () => true, timeoutMs = 10_000) => {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const m = messages.find((x) => x.to.includes(to) && match(x));
        if (m) return m;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no mail to ${to} arrived within ${timeoutMs} ms`);
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Part = { headers: Record<string, string>; body: string };

function splitPart(raw: string): Part {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? "" : raw.slice(at).replace(/^\r?\n\r?\n/, "");
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, body };
}

function decode(p: Part): string {
  const enc = (p.headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  if (enc === "base64") return Buffer.from(p.body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (enc === "quoted-printable") {
    const bytes = p.body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  return p.body;
}

function leaves(p: Part): Part[] {
  const type = p.headers["content-type"] ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith("multipart/") || !boundary) return [p];
  return p.body
    .split(`--${boundary}`)
    .slice(1)
    .filter((s) => !s.startsWith("--"))
    .flatMap((s) => leaves(splitPart(s.replace(/^\r?\n/, ""))));
}

function parse(raw: string): { subject: string; text: string; html: string } {
  const top = splitPart(raw);
  const parts = leaves(top);
  const of = (t: string) => {
    const p = parts.find((x) => (x.headers["content-type"] ?? "text/plain").toLowerCase().startsWith(t));
    return p ? decode(p) : "";
  };
  return { subject: top.headers.subject ?? "", text: of("text/plain"), html: of("text/html") };
}

/** The messages a test SMTP server saved into `dir` (see startTestSmtp's saveTo), oldest first. */
export function savedMail(dir: string): ReceivedMail[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort((a, b) => Number(a.split("-")[0]) - Number(b.split("-")[0]) || a.localeCompare(b))
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as ReceivedMail);
}
