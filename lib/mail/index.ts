import nodemailer from "nodemailer";
import { config } from "../config";
import { log } from "../log";

/** A message in plain text and simple HTML; the HTML is built from escaped text only. */
export type Mail = { to: string; subject: string; text: string; html: string };

/** What became of a message: sent, failed (the reason is logged, never the message), or no mail configured. */
export type MailOutcome = "sent" | "failed" | "not_configured";

type Transport = ReturnType<typeof nodemailer.createTransport>;
const key = Symbol.for("folio.mail");
const holder = globalThis as unknown as { [key]?: { url: string; transport: Transport } };

/** True when SMTP_URL is set: invitations and "forgot password" links are then emailed. */
export function mailConfigured(): boolean {
  return Boolean(config().SMTP_URL);
}

function transport(): Transport | undefined {
  const url = config().SMTP_URL;
  if (!url) return undefined;
  let h = holder[key];
  if (h?.url !== url) {
    // why the timeouts: a mail server that does not answer must not hold a person's request for minutes.
    h = { url, transport: nodemailer.createTransport(url, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }) };
    holder[key] = h;
  }
  return h.transport;
}

/**
 * Sends one message from MAIL_FROM. Never throws: a failure is logged with the server's reason
 * (never the body, which holds links) and answered as "failed", so the caller can say so.
 */
export async function sendMail(mail: Mail): Promise<MailOutcome> {
  const t = transport();
  if (!t) return "not_configured";
  try {
    await t.sendMail({ from: config().MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    return "sent";
  } catch (e) {
    const err = e as { code?: string; responseCode?: number; message?: string };
    log().warn({ mail: { subject: mail.subject, code: err.code, responseCode: err.responseCode, reason: err.message } }, "could not send mail");
    return "failed";
  }
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** A message with one call to action: paragraphs of text, a link button, and a closing note. */
export function actionMail(to: string, subject: string, opts: { paragraphs: string[]; action: string; link: string; note: string }): Mail {
  const text = [...opts.paragraphs, `${opts.action}: ${opts.link}`, opts.note].join("\n\n") + "\n";
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const html = `<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#111827;line-height:1.5;max-width:560px;margin:0 auto;padding:24px">
${opts.paragraphs.map(p).join("\n")}
<p style="margin:24px 0"><a href="${escapeHtml(opts.link)}" style="background:#111827;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(opts.action)}</a></p>
<p style="margin:0 0 16px;font-size:14px;color:#4b5563">Or open this link: <a href="${escapeHtml(opts.link)}" style="color:#1d4ed8">${escapeHtml(opts.link)}</a></p>
<p style="margin:0;font-size:14px;color:#4b5563">${escapeHtml(opts.note)}</p>
</body></html>`;
  return { to, subject, text, html };
}
