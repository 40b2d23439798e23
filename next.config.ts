import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // why: these packages hold native connections or spawn browsers; bundling them breaks that.
  serverExternalPackages: ["pg-boss", "postgres", "playwright-core", "pino", "@aws-sdk/client-s3"],
  poweredByHeader: false,
  // The API is JSON under /v1; no trailing-slash redirects on it.
  skipTrailingSlashRedirect: true,
  typescript: { ignoreBuildErrors: true }, // why: `npm test` runs tsc itself; the build need not do it twice
  // why: forbidden() answers a role without access with the console's refusal page and HTTP 403 (lib/console).
  // FOLIO_PRELOAD_ROUTES=0: routes load on their first request instead of all at start (lib/testing: the
  // suite's short-lived servers each answer a few routes).
  // serverMinification off: minifying the server's bundles was a quarter of a clean build's CPU (74 s against 55 s
  // without), for no faster start (a web server's start and first requests cost the same CPU either way), and an
  // operator's stack traces keep the server code's own names. The browser's bundles stay minified.
  experimental: { authInterrupts: true, preloadEntriesOnStart: process.env.FOLIO_PRELOAD_ROUTES !== "0", serverMinification: false },
  // why: every page's <title> is in <head> from the first byte and stays there through a refresh after a
  // server action; streamed metadata left a moment without one (axe's document-title failed a journey in CI).
  htmlLimitedBots: /.*/,
  // why: keeps shiki out of the template editor's bundle (components/templates/stubs/shiki-core.ts).
  turbopack: {
    resolveAlias: {
      "shiki/core": "./components/templates/stubs/shiki-core.ts",
      "@shikijs/markdown-it/core": "./components/templates/stubs/shiki-markdown-it.ts",
      "shiki/themes/vitesse-light.mjs": "./components/templates/stubs/empty.ts",
      "shiki/themes/vitesse-dark.mjs": "./components/templates/stubs/empty.ts",
      "shiki/langs/javascript.mjs": "./components/templates/stubs/empty.ts",
    },
  },
};

export default nextConfig;
