import { startTestServers } from "../lib/testing/global-setup";

/**
 * Once per `playwright test`: the same servers as the integration tests (lib/testing/global-setup.ts),
 * on a fresh database of their own. Their settings go into process.env, which the test workers
 * inherit: fixtures call lib/ verbs against the same database, and read FOLIO_E2E_BASE_URL.
 */
export default async function globalSetup() {
  const servers = await startTestServers({
    // why: every browser connects from 127.0.0.1, and sign-in attempts are limited per address
    // (10 a minute). Trusting loopback as a proxy lets each test's browser context say it is an
    // address of its own in X-Forwarded-For (fixtures.ts), as people behind a real proxy are.
    TRUSTED_PROXY_RANGES: "127.0.0.0/8",
  });
  for (const [k, v] of Object.entries(servers.serverEnv)) process.env[k] = v;
  process.env.FOLIO_E2E_BASE_URL = servers.baseUrl;
  process.env.FOLIO_PROCESS = "test";
  process.env.LOG_LEVEL = "warn";
  return servers.stop;
}
