import net from "node:net";
import postgres from "postgres";

/**
 * Answers for a database that stopped answering without closing anything: its processes stopped
 * (SIGSTOP, a frozen virtual machine), a network that drops every packet. PostgreSQL's
 * statement_timeout is the server's and a server that does not run applies nothing; the kernel
 * acknowledges what is sent to a stopped process, and a network that drops packets reports nothing
 * for many minutes, so a statement sent on an open connection would wait for good, and with it
 * the request (or /readyz) that sent it.
 *
 * So the client keeps the deadline: when a statement has waited `seconds` for its answer, a new
 * connection is asked `select 1`, with the same `seconds` to connect and answer. An answer of any
 * kind (a refusal too) says the server runs and the statement is merely slow (a lock held while a
 * large upload is stored waits longer), and it goes on waiting, checked again every `seconds`.
 * No answer says the server cannot answer: every connection of the pool that is older than
 * `seconds` is dropped (younger ones are still starting, under the connect time-out), their
 * statements fail with CONNECTION_CLOSED, and the requests answer 503 (lib/db/unavailable.ts):
 * about twice `seconds` after they began. New connections are made as they are needed.
 */
export type Watchdog = {
  /** postgres.js's `socket` option: connects as postgres.js would, and keeps the socket to drop it. */
  socket: (options: SocketOptions) => net.Socket;
  /** Starts a wait for the server's answer; the function returned ends it (more than once is harmless). */
  wait: () => () => void;
  /** A wait that lasts until `p` settles (a postgres.js query: observing it does not run it). */
  track: (p: PromiseLike<unknown>) => void;
};

/** The connection settings postgres.js hands a custom socket factory (its parsed options). */
type SocketOptions = { host: string[]; port: number[]; path?: string | false };

export type WatchdogOptions = {
  url: string;
  /** How long a statement may wait before the check, and how long the check may take. */
  seconds: number;
  /** Told when the connections were dropped; `waitedMs` is the longest wait among them. */
  onDropped: (info: { waitedMs: number; dropped: number; err: unknown }) => void;
};

/** How often waits are looked at while there are any. */
const TICK_MS = 500;

export function databaseWatchdog(opts: WatchdogOptions): Watchdog {
  const limitMs = opts.seconds * 1000;
  const pool = socketFactory();
  const waits = new Set<{ since: number }>();
  let ticker: NodeJS.Timeout | undefined;
  let checking = false;
  /** When a check last got an answer: the server was running then. */
  let answeredAt = -Infinity;

  const wait = () => {
    const w = { since: performance.now() };
    waits.add(w);
    ticker ??= setInterval(tick, TICK_MS).unref();
    return () => void waits.delete(w);
  };

  function tick() {
    if (waits.size === 0) {
      clearInterval(ticker);
      ticker = undefined;
      return;
    }
    const now = performance.now();
    let oldest = now;
    for (const w of waits) oldest = Math.min(oldest, w.since);
    if (checking || now - oldest < limitMs || now - answeredAt < limitMs) return;
    checking = true;
    void answers(opts.url, opts.seconds)
      .then((result) => {
        if (result === true) return void (answeredAt = performance.now());
        const dropped = pool.dropOlderThan(limitMs);
        opts.onDropped({ waitedMs: Math.round(performance.now() - oldest), dropped, err: result });
      })
      .finally(() => (checking = false));
  }

  return {
    socket: pool.socket,
    wait,
    track: (p) => {
      const end = wait();
      // why Promise's own then: a postgres.js query's then() would run it before the caller set it up (.values()).
      void Promise.prototype.then.call(p, end, end);
    },
  };
}

/**
 * A socket factory for postgres.js that connects as postgres.js itself would (a Unix socket's path,
 * else the hosts in turn) and keeps every socket it made, so they can be dropped.
 */
function socketFactory() {
  const sockets = new Map<net.Socket, number>();
  let next = 0;
  return {
    socket: (o: SocketOptions): net.Socket => {
      for (const s of sockets.keys()) if (s.destroyed) sockets.delete(s);
      let s: net.Socket;
      if (o.path) s = net.connect(o.path);
      else {
        const i = next++ % o.host.length;
        s = net.connect(o.port[i] ?? o.port[0]!, o.host[i]);
        // why: postgres.js names the host in its errors and as TLS's server name from these.
        Object.assign(s, { host: o.host[i], port: o.port[i] ?? o.port[0] });
      }
      sockets.set(s, performance.now());
      return s;
    },
    /** Destroys the sockets made more than `ms` ago (under TLS too: closing the socket closes the TLS one); answers how many. */
    dropOlderThan: (ms: number) => {
      const now = performance.now();
      let n = 0;
      for (const [s, made] of sockets) {
        if (s.destroyed) sockets.delete(s);
        else if (now - made >= ms) {
          // why no error: postgres.js would count it as a failed connection and wait longer before the next one.
          s.destroy();
          sockets.delete(s);
          n++;
        }
      }
      return n;
    },
    dropAll: () => {
      for (const s of sockets.keys()) s.destroy();
      sockets.clear();
    },
  };
}

/**
 * True when a new connection to the database answers `select 1` within `seconds` (to connect and to
 * answer), or answers with a refusal (the server runs); else the error: the time-out, or why the
 * connection failed.
 */
export async function answers(url: string, seconds: number): Promise<true | unknown> {
  const own = socketFactory();
  const sql = postgres(url, {
    max: 1,
    connect_timeout: seconds,
    fetch_types: false,
    onnotice: () => {},
    connection: { application_name: "folio check" },
    socket: own.socket,
  } as postgres.Options<Record<string, never>>);
  let timer: NodeJS.Timeout | undefined;
  let answered = false;
  try {
    await Promise.race([
      sql`select 1`,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error(`The database did not answer select 1 on a new connection within ${seconds} s`), { code: "CONNECT_TIMEOUT" })), seconds * 1000);
      }),
    ]);
    return (answered = true);
  } catch (err) {
    answered = err instanceof postgres.PostgresError;
    return answered || err;
  } finally {
    clearTimeout(timer);
    // why destroyed without an answer: ending a connection politely waits for a server that does not answer.
    if (answered) void sql.end({ timeout: seconds }).catch(() => {}).finally(own.dropAll);
    else {
      own.dropAll();
      void sql.end({ timeout: 0 }).catch(() => {});
    }
  }
}
