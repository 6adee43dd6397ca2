import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { freePort, nginxForTest, startProxy, waitForHttp } from "../../test/support/local-cluster.ts";
import { KEEP_ALIVE_TIMEOUT_MS } from "./timeouts.ts";

// The local cluster's nginx in front of a node:http server with the shop's keep-alive, whose event
// loop is busy from 1 s before an idle connection's keep-alive runs out to 1 s after, as a loaded
// instance's can be. A POST that nginx sends on that connection in the meantime is read only after
// node has closed it (timers run before I/O), and nginx answers a POST that met a reset with 502.
// With nginx dropping its idle connections first (keepalive_timeout 3s), it goes on a new one.

const nginx = nginxForTest("Proxy keep-alive test");

/** Answers every request with its method; `GET /` also makes the event loop busy later, as above. */
const UPSTREAM = `
const http = require("node:http");
const keepAlive = Number(process.env.KEEP_ALIVE_MS);
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.end(req.method);
    if (req.method !== "GET" || req.url !== "/") return;
    setTimeout(() => setImmediate(() => {
      process.stdout.write("busy\\n"); // a pipe's writes are synchronous: the line is out before the loop
      const until = Date.now() + 2000;
      while (Date.now() < until);
    }), keepAlive - 1000);
  });
});
server.keepAliveTimeout = keepAlive;
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

let upstream: ChildProcess | null = null;
let proxy: { close(): Promise<void> } | null = null;
afterEach(async () => {
  await proxy?.close();
  upstream?.kill("SIGKILL");
  proxy = upstream = null;
});

describe.skipIf(!nginx)("nginx's kept connections to an instance", () => {
  it("carry a POST sent while the instance's event loop is busy as its keep-alive runs out", async () => {
    upstream = spawn(process.execPath, ["-e", UPSTREAM], { env: { ...process.env, KEEP_ALIVE_MS: String(KEEP_ALIVE_TIMEOUT_MS) }, stdio: ["ignore", "pipe", "inherit"] });
    const [line] = (await once(upstream.stdout!, "data")) as [Buffer];
    const busy = new Promise<void>((resolve) => upstream!.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("busy") && resolve()));
    const port = await freePort();
    proxy = startProxy(nginx!, port, [Number(line.toString().trim())]);
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(`${url}/ready`, 10_000);

    expect(await (await fetch(`${url}/`)).text()).toBe("GET");
    // The instance's event loop has just gone busy, and its keep-alive runs out before it is free.
    await busy;
    const posted = await fetch(`${url}/`, { method: "POST", body: "x" });
    expect(posted.status).toBe(200);
    expect(await posted.text()).toBe("POST");
  });
});
