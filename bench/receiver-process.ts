/**
 * A webhook receiver in a process of its own (bench/delivery.ts): answers every POST with 204 after
 * `--delay` ms and counts them; GET /count answers the count. Its own process so that its work
 * shares the machine's CPU, as a receiver on the same machine would, but not the event loop of the
 * process timing the renders. Prints its port on stdout once listening.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

const delay = Number(process.argv[process.argv.indexOf("--delay") + 1]) || 0;
let received = 0;
const server = http.createServer((req, res) => {
  if (req.method === "GET" && req.url === "/count") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ received }));
  req.resume();
  req.on("end", () =>
    setTimeout(() => {
      received++;
      res.writeHead(204).end();
    }, delay),
  );
});
server.keepAliveTimeout = 1;
server.listen(0, "127.0.0.1", () => console.log(String((server.address() as AddressInfo).port)));
