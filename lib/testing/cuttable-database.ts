import { randomBytes } from "node:crypto";
import net from "node:net";
import postgres from "postgres";
import { createDatabase } from "../db/embedded";

export type CuttableDatabase = {
  /** The database's URL through the proxy: give it to the process under test. */
  url: string;
  /**
   * Ends every connection through the proxy and refuses new ones, as in an outage. With `hang`,
   * new connections are taken and never answered instead, as when the database's host is gone
   * (a connection attempt waits for its time-out).
   */
  cut: (opts?: { hang?: boolean }) => void;
  /**
   * Stops forwarding on the open connections, both ways, without closing them, and takes new ones
   * without answering: the database as its processes stopped (SIGSTOP) or a network dropping every
   * packet leave it. The process under test sees nothing but silence. restore() sends on what was held.
   */
  stall: () => void;
  /** Lets connections through again. */
  restore: () => void;
  /** Stops the proxy and drops the database. */
  close: () => Promise<void>;
};

/**
 * A fresh database of its own on the test cluster, reached through a TCP proxy that can take it
 * away: for tests of what a process does while its database is gone. A database of its own, so a
 * worker started on it claims none of the suite's renders.
 */
export async function cuttableDatabase(adminUrl: string): Promise<CuttableDatabase> {
  // why this name: global-setup drops folio_test_<start time>_* databases that a crashed run left.
  const name = `folio_test_${Date.now()}_cut${randomBytes(3).toString("hex")}`;
  await createDatabase(adminUrl, name);
  const target = new URL(adminUrl);
  const open = new Set<net.Socket>();
  /** Each open socket's forwarding, to stop and start again. */
  const pipes = new Map<net.Socket, net.Socket>();
  let cut: false | "refuse" | "hang" = false;
  const held = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (cut === "refuse") return void client.destroy();
    if (cut === "hang") {
      held.add(client);
      client.on("error", () => {});
      client.on("close", () => held.delete(client));
      return;
    }
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
      open.add(a);
      a.on("error", () => b.destroy());
      a.on("close", () => {
        open.delete(a);
        pipes.delete(a);
        b.destroy();
      });
      pipes.set(a, b);
      a.pipe(b);
    }
  });
  let stalled = false;
  const forward = (on: boolean) => {
    if (stalled === !on) return;
    stalled = !on;
    for (const [a, b] of pipes) {
      if (on) a.pipe(b);
      else {
        a.unpipe(b);
        a.pause();
      }
    }
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(adminUrl);
  url.host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    cut: (opts = {}) => {
      cut = opts.hang ? "hang" : "refuse";
      for (const s of open) s.destroy();
    },
    stall: () => {
      cut = "hang";
      forward(false);
    },
    restore: () => {
      cut = false;
      for (const s of held) s.destroy();
      forward(true);
    },
    close: async () => {
      for (const s of [...open, ...held]) s.destroy();
      await new Promise((resolve) => server.close(resolve));
      const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await sql.unsafe(`drop database if exists "${name}" with (force)`).finally(() => sql.end({ timeout: 5 }));
    },
  };
}
