import { chromium, type Browser, type BrowserContext, type Page, type Route } from "playwright-core";
import { config } from "../config";
import { ASSET_ORIGIN } from "../documents/asset-refs";
import { log } from "../log";
import { systemCoverage } from "./glyphs";
import { containedLaunch, containmentWarnings, describeContainment, requireSeparateUser, SANDBOX_OFF_MESSAGE, sandboxRequiredError, type Containment } from "./containment";
import { renderUser } from "../processes/launch";

/**
 * What a page may load while it renders besides the document: the render's own assets, answered
 * from memory by the worker under ASSET_ORIGIN. Everything else is aborted inside the browser,
 * and the browser's proxy points at a closed port, so even what routing cannot see (WebSocket,
 * WebRTC) reaches no network.
 */
export type PageAssets = Map<string, { body: Buffer; contentType: string; /** Set once the page asked for it. */ requested?: boolean }>;

/**
 * One warm page with its own context. Renders use it one at a time. Each render's document is
 * written into an about:blank document with an opaque origin (no cookies, storage, IndexedDB,
 * caches or service workers that could outlive it). A document with scripts gets a Window no
 * script has run in, and the page goes to a fresh about:blank after it (no globals, timers or
 * listeners survive); a document without scripts runs with script execution off, so it can leave
 * nothing behind and the Window is reused as it is.
 */
export type Slot = {
  page: Page;
  context: BrowserContext;
  assets?: PageAssets;
  /** Whether page scripts may run now (changed per render through CDP, see render.ts). */
  scripts: boolean;
  /** Asset names the page's current Document has loaded, which it would hand to a later document (see render.ts). */
  loadedAssets?: Set<string>;
};

export { ASSET_ORIGIN } from "../documents/asset-refs";

/** Relaunch the browser after this many renders, to bound what a long-lived browser accumulates. */
const RENDERS_PER_BROWSER = 2_000;

const playwrightDisabledFeatures = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
];

export function chromiumArgs(): string[] {
  const cfg = config();
  return [
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--no-first-run",
    "--disable-quic",
    "--mute-audio",
    // why: defence in depth for what request routing cannot intercept.
    "--proxy-server=http://127.0.0.1:9",
    "--proxy-bypass-list=<-loopback>",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    `--js-flags=--max-old-space-size=${Math.floor(cfg.RENDER_MAX_HEAP_BYTES / (1024 * 1024))}`,
    // why: a new RenderFrameHost per navigation roughly doubles the cost of the about:blank reset
    // between renders (17 ms against 32 ms measured here). The last --disable-features wins, so
    // this repeats Playwright's own list.
    `--disable-features=${[...playwrightDisabledFeatures, "RenderDocument"].join(",")}`,
  ];
}

/** The asset name in a URL under ASSET_ORIGIN; undefined for any other URL or one that does not decode. */
export function assetName(url: string): string | undefined {
  if (!url.startsWith(`${ASSET_ORIGIN}/`)) return undefined;
  try {
    return decodeURIComponent(url.slice(ASSET_ORIGIN.length + 1));
  } catch {
    return undefined; // malformed percent-encoding names no asset
  }
}

/**
 * The worker's Chromium: one browser, one warm page per concurrent render. A crashed or closed
 * page is replaced; a disconnected browser is relaunched; after RENDERS_PER_BROWSER renders the
 * browser is replaced once idle.
 */
export class BrowserPool {
  private browser?: Browser;
  private launching?: Promise<Browser>;
  private readonly free: Slot[] = [];
  private readonly waiting: ((s: Slot) => void)[] = [];
  private rendersOnBrowser = 0;
  /** How the running browser is contained; undefined until it launched. */
  containment?: Containment;
  private busy = 0;
  private closed = false;

  constructor(private readonly size: number) {}

  /** Launches the browser and warms every slot (the worker is ready once this resolves). */
  async start() {
    void systemCoverage(); // read once, now, so that no render waits for it
    await this.ensureBrowser();
    const slots = await Promise.all(Array.from({ length: this.size }, () => this.newSlot()));
    this.free.push(...slots);
  }

  get ready() {
    return !!this.browser?.isConnected();
  }

  private async ensureBrowser(): Promise<Browser> {
    if (this.browser?.isConnected()) return this.browser;
    this.launching ??= (async () => {
      const b = await this.launch();
      b.on("disconnected", () => {
        if (this.browser !== b || this.closed) return;
        log().warn("chromium disconnected; relaunching it");
        this.browser = undefined;
        // The free slots' pages died with the browser; busy ones come back unhealthy and are replaced then.
        this.replace(this.free.splice(0).length);
      });
      this.browser = b;
      this.rendersOnBrowser = 0;
      return b;
    })().finally(() => (this.launching = undefined));
    return this.launching;
  }

  /**
   * Launches the contained browser (containment.ts). The sandbox is tried first on every launch;
   * only a launch that Chromium refused for want of a usable sandbox is repeated without it, loudly,
   * and never under RENDERER_REQUIRE_SANDBOX: then the launch fails (at start, the worker exits).
   */
  private async launch(): Promise<Browser> {
    const required = config().RENDERER_REQUIRE_SANDBOX;
    const user = renderUser();
    requireSeparateUser(user);
    const launch = (sandbox: boolean) =>
      chromium.launch({
        ...containedLaunch(user, sandbox),
        args: chromiumArgs(),
        headless: true,
        // why: the worker's own stop lets running renders finish, then closes the browser; Playwright
        // must not kill it on the first signal (it would also trigger a relaunch mid-shutdown).
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
    let browser: Browser;
    let sandbox = true;
    try {
      browser = await launch(true);
    } catch (err) {
      // why Chromium's own words: any other launch failure (a crash, a killed process) must stay a
      // failure, never quietly turn the sandbox off.
      if (!/No usable sandbox/.test(String(err))) throw err;
      if (required) throw sandboxRequiredError(err);
      log().error({ err }, SANDBOX_OFF_MESSAGE);
      browser = await launch(false);
      sandbox = false;
    }
    const containment: Containment = { user: user?.name, sandbox, separateUser: !!user, required };
    if (this.containment?.sandbox !== sandbox) {
      const warnings = containmentWarnings(containment);
      log()[warnings.length ? "error" : "info"]({ containment, ...(warnings.length ? { warnings } : {}) }, `chromium started: ${describeContainment(containment)}`);
    }
    this.containment = containment;
    return browser;
  }

  private async newSlot(): Promise<Slot> {
    const browser = await this.ensureBrowser();
    const context = await browser.newContext({ serviceWorkers: "block", acceptDownloads: false });
    const slot: Slot = { context, page: undefined as unknown as Page, scripts: true };
    await context.route("**/*", (route) => this.answer(slot, route));
    // window.name is the one value a Window hands to the next document in the same tab.
    await context.addInitScript(() => {
      window.name = "";
    });
    slot.page = await context.newPage();
    context.on("page", (p) => {
      if (p !== slot.page) void p.close().catch(() => {}); // popups the document opens
    });
    return slot;
  }

  /** Answers one request of a page. Never throws: the route listener's promise is not awaited by anyone. */
  private async answer(slot: Slot, route: Route) {
    try {
      const request = route.request();
      // why 204: it cancels any navigation the document starts (links, forms, location, meta
      // refresh, frames) and keeps the document on the page.
      if (request.isNavigationRequest()) return await route.fulfill({ status: 204, body: "" });
      const asset = slot.assets?.get(assetName(request.url()) ?? "");
      if (asset) {
        asset.requested = true;
        // why the CORS header: the page's origin is opaque, and fonts (and crossorigin images) are
        // CORS requests, which a browser refuses to use without it.
        return await route.fulfill({ status: 200, headers: { "content-type": asset.contentType, "access-control-allow-origin": "*", "cache-control": "no-store" }, body: asset.body });
      }
      await route.abort("blockedbyclient");
    } catch (err) {
      // The page went away (closed, crashed) while its request waited: nothing is left to answer.
      log().debug({ err }, "a page request could not be answered");
    }
  }

  /** A free slot, waiting for one while all are busy. */
  async acquire(): Promise<Slot> {
    const slot = this.free.pop();
    if (slot) {
      this.busy++;
      return slot;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /**
   * Returns a slot. A healthy slot goes back warm; a broken one (crashed page, timed-out render)
   * is closed and replaced in the background. After RENDERS_PER_BROWSER renders, the browser is
   * replaced as soon as no render runs.
   */
  release(slot: Slot, healthy: boolean) {
    this.busy--;
    slot.assets = undefined;
    this.rendersOnBrowser++;
    const browser = this.browser;
    if (this.closed) return;
    if (this.rendersOnBrowser >= RENDERS_PER_BROWSER && this.busy === 0 && browser) {
      const n = this.free.splice(0).length + 1;
      this.browser = undefined;
      void browser.close().catch(() => {}).then(() => this.replace(n));
      return;
    }
    if (healthy && browser?.isConnected() && !slot.page.isClosed()) return this.handOut(slot);
    void slot.context.close().catch(() => {});
    this.replace(1);
  }

  private replace(n: number) {
    for (let i = 0; i < n; i++) {
      void (async () => {
        while (!this.closed) {
          try {
            return this.handOut(await this.newSlot());
          } catch (err) {
            log().error({ err }, "could not open a browser page; retrying");
            await new Promise((r) => setTimeout(r, 1000));
          }
        }
      })();
    }
  }

  private handOut(slot: Slot) {
    const next = this.waiting.shift();
    if (next) {
      this.busy++;
      next(slot);
    } else this.free.push(slot);
  }

  /**
   * Closes the browser, or the one still being launched once it is up (closing is what removes
   * Playwright's folder of it in the temporary directory); never waits more than 5 s (a browser
   * stuck in a relaunch must not hold up a stop: it then ends with this process, its pipe closed).
   */
  async close() {
    this.closed = true;
    const closing = (async () => {
      const browser = this.browser ?? (await this.launching?.catch(() => undefined));
      await browser?.close().catch(() => {});
    })();
    await Promise.race([closing, new Promise((r) => setTimeout(r, 5_000).unref())]);
  }
}
