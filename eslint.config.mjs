import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// why: only repositories and lib/db talk to drizzle; handlers, pages and job handlers call verbs. And the
// console's links are components/ui/link.tsx, which does not prefetch (docs/architecture.md, "The console").
const noDrizzleOutsideData = {
  files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "worker/jobs/**/*.ts"],
  ignores: ["**/*.test.ts"], // tests may read and set rows directly
  rules: {
    "no-restricted-imports": ["error", {
      paths: [{ name: "next/link", message: "Use @/components/ui/link: the console's links do not prefetch." }],
      patterns: [{ group: ["drizzle-orm", "drizzle-orm/*", "@/lib/db/*", "postgres"], message: "Call a lib/<resource> verb instead." }],
    }],
  },
};

// why: domain code throws AppError and returns data; only the transport turns them into answers
// (the envelope, statuses, headers). lib/server wires the transport, lib/maintenance prunes the rate-limit
// windows lib/http keeps, and lib/testing drives it.
const noTransportInDomain = {
  files: ["lib/**/*.ts"],
  ignores: ["lib/http/**", "lib/server/**", "lib/maintenance/**", "lib/testing/**"],
  rules: {
    "no-restricted-imports": ["error", {
      patterns: [{ regex: "^(@/lib/|(\\.\\./)+)http(/|$)", message: "Domain code does not know the transport: throw AppError (lib/errors.ts) and return data." }],
    }],
  },
};

// why: lib/, worker/, bench/, e2e/, scripts/ and packages/ hold no React (no JSX, no hooks; the
// console's code is in app/ and components/), and React's rules there only cost time: the React
// Compiler's static-components rule alone took half of the lint's rule time, on every test file.
const reactRules = [...nextVitals, ...nextTs].flatMap((c) => Object.keys(c.rules ?? {})).filter((r) => /^(react|react-hooks|jsx-a11y|@next\/next)\//.test(r));
const noReactOutsideConsole = {
  files: ["{lib,worker,bench,e2e,scripts,packages}/**/*.{ts,mts,cts,js,mjs}"],
  rules: Object.fromEntries(reactRules.map((r) => [r, "off"])),
};

const config = [
  { ignores: [".next/**", ".data/**", "dist/**", "packages/*/dist/**", "node_modules/**", "drizzle/**", "next-env.d.ts"] },
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  noDrizzleOutsideData,
  noTransportInDomain,
  noReactOutsideConsole,
];

export default config;
