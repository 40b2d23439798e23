import path from "node:path";
import { projectRoot } from "../lib/testing/server";
import { startTestSmtp } from "../lib/testing/smtp";
import { startTestServers } from "../lib/testing/global-setup";

/**
 * Once per `playwright test`: the same servers as the integration tests (lib/testing/global-setup.ts),
 * on a fresh database of their own. Their settings go into process.env, which the test workers
 * inherit: fixtures call lib/ verbs against the same database, and read FOLIO_E2E_BASE_URL.
 */
export default async function globalSetup() {
  // why: invitations and "forgot password" mail go to a real SMTP server on loopback; it saves each
  // message into a folder the test workers read (e2e/people.spec.ts).
  const mailDir = path.join(projectRoot, ".data", "e2e-mail", `${Date.now()}_${process.pid}`);
  const smtp = await startTestSmtp(undefined, mailDir);
  const servers = await startTestServers({
    SMTP_URL: smtp.url,
    // why: every browser connects from 127.0.0.1, and sign-in attempts are limited per address
    // (10 a minute). Trusting loopback as a proxy lets each test's browser context say it is an
    // address of its own in X-Forwarded-For (fixtures.ts), as people behind a real proxy are.
    TRUSTED_PROXY_RANGES: "127.0.0.0/8",
  });
  for (const [k, v] of Object.entries(servers.serverEnv)) process.env[k] = v;
  process.env.FOLIO_E2E_BASE_URL = servers.baseUrl;
  process.env.FOLIO_PROCESS = "test";
  process.env.LOG_LEVEL = "warn";
  process.env.FOLIO_E2E_MAIL_DIR = mailDir;
  return async () => {
    await servers.stop();
    await smtp.stop();
  };
}
