import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

/**
 * The Dockerfile and compose.yaml, read as Docker would read them (Docker cannot run on the test
 * machines). lib/cli/container-entry.test.ts runs the entry script the image runs.
 */

const root = path.resolve(__dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

type Instruction = { keyword: string; args: string };

/** The Dockerfile's instructions: continuation lines joined, comments and blank lines dropped. */
function instructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  let current = "";
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (trimmed.startsWith("#") || trimmed === "") continue;
    current += (current ? " " : "") + trimmed.replace(/\\$/, "").trim();
    if (trimmed.endsWith("\\")) continue;
    const [, keyword, args] = /^(\S+)\s*(.*)$/.exec(current)!;
    out.push({ keyword: keyword!.toUpperCase(), args: args! });
    current = "";
  }
  return out;
}

/** The instructions split into stages, each named by its FROM line. */
function stages(all: Instruction[]): { from: string; name?: string; body: Instruction[] }[] {
  const out: { from: string; name?: string; body: Instruction[] }[] = [];
  for (const i of all) {
    if (i.keyword === "FROM") {
      const [, image, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(i.args)!;
      out.push({ from: image!, name, body: [] });
    } else out.at(-1)?.body.push(i);
  }
  return out;
}

const args = (body: Instruction[], keyword: string) => body.filter((i) => i.keyword === keyword).map((i) => i.args);

describe("Dockerfile", () => {
  const all = instructions(read("Dockerfile"));
  const staged = stages(all);
  const named = (name: string) => staged.find((s) => s.name === name)!;
  /** A stage's instructions with those of the stages it is built FROM, first to last (what its image holds). */
  const chain = (name: string): Instruction[] => {
    const s = named(name);
    return [...(staged.some((o) => o.name === s.from) ? chain(s.from) : []), ...s.body];
  };
  const build = named("build");
  // The default image is the last stage: `docker build .` and `docker run` as the README says.
  const runtime = { ...staged.at(-1)!, body: chain(staged.at(-1)!.name!) };
  const nodeVersion = (JSON.parse(read("package.json")) as { devDependencies: Record<string, string> }).devDependencies.node!;
  const installed = (name: string) => args(chain(name), "RUN").join(" ") + " ";
  const wanted = /want=\(([^)]*)\)/.exec(read("scripts/ensure-system.sh"))![1]!.split(/\s+/).filter(Boolean);
  // why not full chromium: only the benchmark and the console's journeys use it.
  const rendering = wanted.filter((p) => p !== "chromium" && p !== "perl-base");

  it("is a build and three Debian slim images on the project's Node 24: web, worker and the default all-in-one runtime, last", () => {
    expect(staged.map((s) => s.name)).toEqual(["build", "base", "web", "browser", "worker", "runtime"]);
    expect(build.from).toBe(`node:${nodeVersion}-bookworm`);
    expect(nodeVersion).toMatch(/^24\./);
    expect(args(build.body, "RUN").join(" ")).toMatch(/npm ci .*npm run build.*npm prune --omit=dev/);
    expect(named("base").from).toBe(`node:${nodeVersion}-bookworm-slim`);
    for (const role of ["web", "worker", "runtime"]) {
      expect(args(named(role).body, "COPY"), role).toEqual([`--from=build /app /app`]);
      expect(args(chain(role), "ENTRYPOINT"), role).toEqual(['["/usr/bin/tini", "--", "/app/scripts/container-entry.sh"]']);
    }
    expect(args(named("web").body, "CMD")).toEqual(['["web"]']);
    expect(args(named("worker").body, "CMD")).toEqual(['["worker"]']);
  });

  it("installs the headless shell, the fonts ensure-system.sh installs, poppler, PostgreSQL's server and tini in the default image", () => {
    for (const pkg of [...rendering, "perl-base", "tini"]) expect(installed("runtime"), pkg).toMatch(new RegExp(`\\s${pkg}\\s`));
    expect(installed("runtime")).toMatch(/\spostgresql-15\s/);
    expect(installed("runtime")).toContain("create_main_cluster = false");
  });

  it("leaves out of each role's image what it never runs: the web image has no browser, fonts, poppler or PostgreSQL, the worker's no PostgreSQL", () => {
    for (const pkg of ["tini", "perl-base"]) {
      expect(installed("web"), pkg).toMatch(new RegExp(`\\s${pkg}\\s`));
      expect(installed("worker"), pkg).toMatch(new RegExp(`\\s${pkg}\\s`));
    }
    for (const pkg of rendering) {
      expect(installed("web"), pkg).not.toMatch(new RegExp(`\\s${pkg}\\s`));
      expect(installed("worker"), pkg).toMatch(new RegExp(`\\s${pkg}\\s`));
    }
    expect(installed("web")).not.toMatch(/postgresql/);
    expect(installed("worker")).not.toMatch(/postgresql/);
  });

  it("runs compiled programs: the build compiles them, and nothing that runs TypeScript is a production dependency", () => {
    const pkg = JSON.parse(read("package.json")) as { scripts: Record<string, string>; dependencies: Record<string, string> };
    expect(pkg.scripts.build).toMatch(/^next build && node .*scripts\/build-server\.mjs$/);
    expect(pkg.scripts.start).toMatch(/ dist\/server\/start\.js$/);
    for (const loader of ["tsx", "esbuild", "typescript"]) expect(pkg.dependencies).not.toHaveProperty(loader);
    const entry = read("scripts/container-entry.sh");
    expect(entry).not.toMatch(/tsx/);
    for (const program of ["start", "web", "worker"]) expect(entry).toContain(`entry=dist/server/${program}.js`);
    expect(read(".dockerignore").split("\n").map((l) => l.trim())).toContain("dist");
  });

  it("starts as root only for the entry script, which drops to the service user with four capabilities", () => {
    // No USER instruction: the documented root-then-drop design (docs/architecture.md, "One container").
    expect(args(runtime.body, "USER")).toEqual([]);
    const entry = read("scripts/container-entry.sh").replace(/\\\n\s*/g, "");
    expect(entry).toMatch(/caps=-all,\+setuid,\+setgid,\+chown,\+kill$/m);
    expect(entry).toMatch(/exec setpriv --reuid=.*--inh-caps="\$caps" --ambient-caps="\$caps" --bounding-set="\$caps" --no-new-privs/);
    const users = args(runtime.body, "RUN").join(" ");
    expect(users).toMatch(/useradd [^&]*\bfolio\b/);
    expect(users).toMatch(/useradd [^&]*\bfolio-render\b/);
    expect(args(runtime.body, "ENV").join(" ")).toMatch(/FOLIO_SERVICE_USER=folio\b/);
    expect(args(runtime.body, "ENV").join(" ")).toMatch(/RENDER_USER=folio-render\b/);
  });

  it("runs the repository's entry script under tini, with a healthcheck on /readyz, port 3000 and /data", () => {
    expect(args(runtime.body, "ENTRYPOINT")).toEqual(['["/usr/bin/tini", "--", "/app/scripts/container-entry.sh"]']);
    // The build stage copies the context into /app, the runtime stage /app: the script is the repository's.
    expect(args(build.body, "WORKDIR")).toEqual(["/app"]);
    expect(args(build.body, "COPY")).toContain(". .");
    expect(fs.statSync(path.join(root, "scripts/container-entry.sh")).mode & 0o111).toBe(0o111);
    const ignored = read(".dockerignore").split("\n").map((l) => l.trim());
    expect(ignored).not.toContain("scripts");
    for (const p of ["node_modules", ".next", ".data", ".git", ".env"]) expect(ignored).toContain(p);
    expect(args(runtime.body, "CMD").at(-1)).toEqual('["start"]');
    const [healthcheck] = args(runtime.body, "HEALTHCHECK");
    expect(healthcheck).toMatch(/CMD .*127\.0\.0\.1.*\/readyz/);
    expect(args(runtime.body, "EXPOSE")).toEqual(["3000"]);
    expect(args(runtime.body, "VOLUME")).toEqual(["/data"]);
    expect(args(runtime.body, "ENV").join(" ")).toMatch(/DATA_DIR=\/data\b/);
  });
});

describe("compose.yaml", () => {
  type Service = {
    image?: string;
    build?: string | { context: string; target: string };
    command?: string[];
    environment?: Record<string, string>;
    healthcheck?: { test: string[] };
    security_opt?: string[];
    ports?: string[];
    depends_on?: Record<string, { condition: string }>;
  };
  const compose = parse(read("compose.yaml"), { merge: true }) as { services: Record<string, Service> };
  const services = Object.entries(compose.services);
  /** The services of a role, each built from the Dockerfile's image of that role. */
  const role = (r: string) => services.filter(([, s]) => s.image === `folio-${r}:latest` && JSON.stringify(s.build) === JSON.stringify({ context: ".", target: r }) && s.command?.[0] === r);

  it("has two web nodes and two workers from the Dockerfile, PostgreSQL and an S3 store", () => {
    expect(role("web")).toHaveLength(2);
    expect(role("worker")).toHaveLength(2);
    const postgresName = services.find(([, s]) => s.image?.startsWith("postgres:"))?.[0];
    const storeName = services.find(([, s]) => s.image?.includes("minio/minio"))?.[0];
    expect(postgresName).toBeDefined();
    expect(storeName).toBeDefined();
    for (const [name, s] of [...role("web"), ...role("worker")]) {
      expect(s.environment?.DATABASE_URL, name).toMatch(new RegExp(`@${postgresName}:5432/`));
      expect(s.environment?.FILE_STORE, name).toBe("s3");
      expect(s.environment?.FILE_STORE_S3_ENDPOINT, name).toBe(`http://${storeName}:9000`);
      // Every node the same key, from .env, never from the image.
      expect(s.environment?.SECRET_KEY, name).toMatch(/^\$\{SECRET_KEY:\?/);
      expect(s.depends_on?.[postgresName!]?.condition, name).toBe("service_healthy");
    }
  });

  it("checks every service's health: the image's /readyz for web, the worker's health port, the database, the store", () => {
    for (const [name, s] of role("worker")) {
      expect(s.healthcheck?.test.join(" "), name).toContain(`127.0.0.1:${s.environment?.WORKER_HEALTH_PORT}/readyz`);
      expect(s.environment?.RENDERER_REQUIRE_SANDBOX, name).toBe("true");
      expect(s.security_opt, name).toEqual(["seccomp=./docker/seccomp-chromium.json"]);
    }
    // The web nodes keep the image's HEALTHCHECK (checked above).
    for (const [name, s] of role("web")) expect(s.healthcheck, name).toBeUndefined();
    for (const image of ["postgres:", "quay.io/minio/minio"]) {
      expect(services.find(([, s]) => s.image?.startsWith(image))?.[1].healthcheck?.test.length).toBeGreaterThan(1);
    }
  });

  it("pins every image but Folio's own to a release, and its .env recipe sets PUBLIC_URL", () => {
    for (const [name, s] of services) {
      if (/^folio-(web|worker):latest$/.test(s.image ?? "")) continue;
      // A release: a tag with a minor version or a dated release, never latest or a bare major.
      expect(s.image, name).toMatch(/:(\d+\.\d+[\w.-]*|RELEASE\.[\dTZ-]+)$/);
    }
    const recipe = read("compose.yaml").split("\n").filter((l) => l.startsWith("#")).join("\n");
    expect(recipe).toMatch(/printf '[^']*PUBLIC_URL=%s/);
    expect(read("README.md")).toMatch(/printf '[^']*PUBLIC_URL=%s/);
  });

  it("publishes one port, on a proxy that spreads requests over both web nodes and is the only trusted proxy", () => {
    const published = services.filter(([, s]) => s.ports?.length);
    expect(published.map(([n]) => n)).toEqual(["proxy"]);
    expect(published[0]![1].ports).toEqual(["3000:3000"]);
    const caddy = read("docker/Caddyfile");
    expect(caddy).toMatch(new RegExp(`reverse_proxy ${role("web").map(([n]) => `${n}:3000`).join(" ")}`));
    expect(caddy).toContain("health_uri /readyz");
    const proxyAddress = (compose.services.proxy as unknown as { networks: { folio: { ipv4_address: string } } }).networks.folio.ipv4_address;
    for (const [, s] of role("web")) expect(s.environment?.TRUSTED_PROXY_RANGES).toBe(`${proxyAddress}/32`);
  });
});

describe("docker/seccomp-chromium.json", () => {
  const profile = JSON.parse(read("docker/seccomp-chromium.json")) as {
    defaultAction: string;
    syscalls: { names: string[]; action: string }[];
  };
  const refused = profile.syscalls.filter((s) => s.action === "SCMP_ACT_ERRNO").flatMap((s) => s.names);

  it("lets Chromium make its sandbox's namespaces and refuses what a new user namespace would otherwise open", () => {
    expect(profile.defaultAction).toBe("SCMP_ACT_ALLOW");
    for (const call of ["clone", "clone3", "unshare", "chroot"]) expect(refused).not.toContain(call);
    for (const call of ["mount", "umount2", "setns", "pivot_root", "bpf", "keyctl", "io_uring_setup", "kexec_load", "init_module", "open_by_handle_at"]) {
      expect(refused).toContain(call);
    }
  });
});
