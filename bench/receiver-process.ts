/**
 * A webhook receiver in a process of its own (bench/delivery.ts): answers every POST with 204 after
 * `--delay` ms and counts them; GET /count answers the count, GET /wait?n=N the same once it
 * reached N (one request, not a poll, per burst). Its own process so that its work
 * shares the machine's CPU, as a receiver on the same machine would, but not the event loop of the
 * process timing the renders. Prints its port on stdout once listening.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

const delay = Number(process.argv[process.argv.indexOf("--delay") + 1]) || 0;
let received = 0;
/** GET /wait?n= requests held until `received` reaches their n. */
const waiting: { n: number; answer: () => void }[] = [];
const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://x");
  const count = () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ received }));
  if (req.method === "GET" && url.pathname === "/count") return void count();
  if (req.method === "GET" && url.pathname === "/wait") {
    const n = Number(url.searchParams.get("n"));
    return void (received >= n ? count() : waiting.push({ n, answer: count }));
  }
  req.resume();
  req.on("end", () =>
    setTimeout(() => {
      received++;
      res.writeHead(204).end();
      for (let i = waiting.length - 1; i >= 0; i--) if (received >= waiting[i]!.n) waiting.splice(i, 1)[0]!.answer();
    }, delay),
  );
});
server.keepAliveTimeout = 1;
server.listen(0, "127.0.0.1", () => console.log(String((server.address() as AddressInfo).port)));
