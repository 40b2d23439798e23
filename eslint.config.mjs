import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// why: only repositories and lib/db talk to drizzle; handlers, pages and job handlers call verbs.
const noDrizzleOutsideData = {
  files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "worker/jobs/**/*.ts"],
  ignores: ["**/*.test.ts"], // tests may read and set rows directly
  rules: {
    "no-restricted-imports": ["error", {
      patterns: [{ group: ["drizzle-orm", "drizzle-orm/*", "@/lib/db/*", "postgres"], message: "Call a lib/<resource> verb instead." }],
    }],
  },
};

const config = [
  { ignores: [".next/**", ".data/**", "node_modules/**", "drizzle/**", "next-env.d.ts"] },
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  noDrizzleOutsideData,
];

export default config;
