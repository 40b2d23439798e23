import { expect } from "vitest";
import { newId } from "../db/ids";
import type { TestWorkspace } from "./factories";
import { api, type ApiOptions } from "./http";
import { startScriptedS3, type ScriptedS3 } from "./s3";

/** A render held active: `processing` until released (then it succeeds) or cancelled. */
export type HeldRender = {
  id: string;
  /** Lets the held upload answer; the render then ends succeeded. */
  release: () => void;
};

export type RenderHolds = {
  /**
   * Creates a render of `w` (a small document unless `body` says otherwise) and returns once it is
   * held: rendered, its upload waiting on the store, its state `processing`.
   */
  hold: (w: TestWorkspace, body?: Record<string, unknown>, opts?: ApiOptions) => Promise<HeldRender>;
  /** Releases every render still held and stops the store. */
  stop: () => Promise<void>;
};

/**
 * Renders held active for as long as a test needs, deterministically and without work: each goes
 * to a storage destination on a scripted object store (lib/testing/s3.ts) that receives the
 * render's upload and answers only when the test releases it. A render stays `processing` while
 * its upload runs (the render path itself, not a test hook), uses no CPU and no render slot
 * meanwhile, and ends `succeeded` once released, or `cancelled` when cancelled first.
 * why not a page that loops until a time: a busy page burns a core while it runs, and a render
 * that must be active when the test looks may already have ended on a loaded machine.
 * The server under test must allow destinations on loopback (DESTINATION_ALLOW_PRIVATE_NETWORKS,
 * set by lib/testing/global-setup.ts). Start one per test file, in beforeAll; stop it in afterAll.
 */
export async function startRenderHolds(): Promise<RenderHolds> {
  const store: ScriptedS3 = await startScriptedS3();
  const gates = new Map<string, { promise: Promise<void>; open: () => void }>();
  const gate = (key: string) => {
    let g = gates.get(key);
    if (!g) {
      let open!: () => void;
      const promise = new Promise<void>((resolve) => (open = resolve));
      g = { promise, open };
      gates.set(key, g);
    }
    return g;
  };
  // Uploads of held renders wait at their gate; anything else (the destination's connection test) succeeds.
  store.script = (r) => (r.method === "PUT" && r.key.startsWith("held/") && !r.key.endsWith(".service-connection-test") ? { status: 200, hold: gate(r.key).promise } : undefined);
  /** The destination each workspace (by id, with the server's base URL) holds its renders at. */
  const destinations = new Map<string, Promise<string>>();
  const destinationOf = (w: TestWorkspace, opts: ApiOptions) => {
    const mapKey = `${opts.baseUrl ?? ""} ${w.id}`;
    let d = destinations.get(mapKey);
    if (!d) {
      const name = `Held ${newId("rnd").slice(4, 12)}`;
      d = api("/v1/storage-destinations", {
        ...opts,
        key: w.key,
        body: { name, endpoint: store.endpoint, bucket: "holds", forcePathStyle: true, prefix: "held", accessKeyId: "HOLDS", secretAccessKey: "holds-secret" },
      }).then((res) => {
        if (res.status !== 201) throw new Error(`could not create the holding destination: ${res.status} ${res.text}`);
        return name;
      });
      destinations.set(mapKey, d);
    }
    return d;
  };

  return {
    hold: async (w, body = { document: { html: "<p>held</p>" } }, opts = {}) => {
      const destination = await destinationOf(w, opts);
      const res = await api("/v1/renders", { ...opts, key: w.key, body: { ...body, destination: { name: destination } } });
      expect(res.status, res.text).toBe(202);
      const id = res.body.id as string;
      const key = `held/${id}.${(body.format as string | undefined) ?? "pdf"}`;
      // The upload has arrived: the render is past its page and waits on the store.
      await expect.poll(() => store.requests.some((r) => r.method === "PUT" && r.key === key), { timeout: 30_000, interval: 50 }).toBe(true);
      return { id, release: () => gate(key).open() };
    },
    stop: async () => {
      for (const g of gates.values()) g.open();
      await store.stop();
    },
  };
}
