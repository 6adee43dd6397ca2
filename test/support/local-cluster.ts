import { spawn, type ChildProcess, execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { eventually } from "./poll.ts";
import { type RunningServer, startServer } from "./server-process.ts";

/** Where Debian's nginx package puts the binary; NGINX_PATH overrides it. */
export function nginxBinary(): string | null {
  const candidates = [process.env.NGINX_PATH, "/usr/sbin/nginx", "/usr/bin/nginx"].filter((p): p is string => Boolean(p));
  return candidates.find((p) => fs.existsSync(p)) ?? null;
}

/**
 * nginx for the test of `what`: its binary, or null once it has said why the test is skipped.
 * REQUIRE_NGINX=1 (CI) makes a missing nginx a failure.
 */
export function nginxForTest(what: string): string | null {
  const nginx = nginxBinary();
  if (nginx) return nginx;
  if (process.env.REQUIRE_NGINX === "1") throw new Error(`REQUIRE_NGINX=1 but ${NO_NGINX}`);
  console.log(`${what} skipped: ${NO_NGINX}.`);
  return null;
}

/** Why a test that needs nginx is skipped. */
export const NO_NGINX = "nginx is not installed (Debian: apt-get install -y nginx; .ci/run installs it)";

/** nginx's arguments for `dir`/nginx.conf, with `dir` as its prefix and its error log there. */
function nginxArgs(dir: string): string[] {
  return ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", path.join(dir, "error.log")];
}

/** Has nginx check `dir`/nginx.conf (`nginx -t`); throws with what nginx said when it refuses it. */
export function checkNginxConfig(nginx: string, dir: string): void {
  execFileSync(nginx, ["-t", "-q", ...nginxArgs(dir)], { stdio: "pipe" });
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Instance {
  name: string;
  port: number;
  url: string;
  /** Its metrics listener, as Prometheus names a target ("127.0.0.1:port"; GET /metrics). */
  metricsAddress: string;
  server: RunningServer | null;
  /** Starts (or starts again) this instance on its port. */
  start(): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface Cluster {
  /** nginx's address: what shoppers use. */
  url: string;
  instances: Instance[];
  /** nginx's master process (its workers are its children). */
  proxyPid: number;
  close(): Promise<void>;
}

export function nginxConfig(dir: string, port: number, upstreams: number[]): string {
  // The same proxying as deploy/nginx.conf, for instances on this machine and a throwaway prefix.
  const proxied = `
      proxy_pass http://storefront;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Request-Id $request_id;`;
  return `
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream storefront {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join("\n")}
    keepalive 64;
    keepalive_timeout 3s;
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 1m;
    location / {${proxied}
      proxy_next_upstream error timeout http_502 http_503;
    }
    location ~ ^/(api/)?admin/products/[0-9]+(/image|\\.data)?$ {${proxied}
      client_max_body_size 6m;
      # Kept in memory: nginx's workers (another user when started as root) cannot write under this prefix.
      client_body_buffer_size 6m;
    }
    location = /api/orders/stream {${proxied}
      proxy_buffering off;
      proxy_cache off;
      proxy_read_timeout 1h;
    }
  }
}
`;
}

export async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const probe = () =>
    fetch(url).then(
      (r) => r.status < 500,
      () => false,
    );
  if (!(await eventually(probe, (ok) => ok, { timeoutMs, everyMs: 100 }))) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/**
 * N Storefront instances (the production build) on one PostgreSQL behind a local nginx, all on
 * 127.0.0.1, without Docker: for `npm run scale:demo` and the scale-out tests.
 */
export async function startCluster(options: { databaseUrl: string; instances?: number; env?: Record<string, string> }): Promise<Cluster> {
  const nginx = nginxBinary();
  if (!nginx) throw new Error("The scale-out set-up needs nginx (Debian: apt-get install -y nginx) or NGINX_PATH.");
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const ports = await Promise.all(Array.from({ length: options.instances ?? 2 }, () => freePort()));
  const metricsPorts = await Promise.all(ports.map(() => freePort()));
  const instances: Instance[] = ports.map((instancePort, i) => {
    const instance: Instance = {
      name: `app${i + 1}`,
      port: instancePort,
      url: `http://127.0.0.1:${instancePort}`,
      metricsAddress: `127.0.0.1:${metricsPorts[i]}`,
      server: null,
      async start() {
        instance.server = await startServer({
          DATABASE_URL: options.databaseUrl,
          PORT: String(instancePort),
          PUBLIC_URL: url,
          TRUST_PROXY: "1",
          INSTANCE_NAME: instance.name,
          METRICS_PORT: String(metricsPorts[i]),
          DATA_DIR: os.tmpdir(),
          ...options.env,
        });
      },
      async stop(signal = "SIGTERM") {
        await instance.server?.stop(signal);
        instance.server = null;
      },
    };
    return instance;
  });
  // One at a time, so the first start's migrations are not raced by the second's.
  for (const instance of instances) await instance.start();

  const proxy = startProxy(nginx, port, ports);
  await waitForHttp(`${url}/api/health`, 10_000);

  return {
    url,
    instances,
    proxyPid: proxy.pid,
    async close() {
      await proxy.close();
      await Promise.all(instances.map((instance) => instance.stop()));
    },
  };
}

/** The cluster's nginx alone, on 127.0.0.1:`port` in front of `upstreams` (ports on 127.0.0.1). */
export function startProxy(nginx: string, port: number, upstreams: number[]): { pid: number; close(): Promise<void> } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-nginx-"));
  fs.writeFileSync(path.join(dir, "nginx.conf"), nginxConfig(dir, port, upstreams));
  checkNginxConfig(nginx, dir);
  const proxy: ChildProcess = spawn(nginx, nginxArgs(dir), { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => proxy.on("exit", () => resolve()));
  return {
    pid: proxy.pid!,
    async close() {
      proxy.kill("SIGQUIT");
      await Promise.race([exited, delay(3_000)]); // a bounded wait for nginx to quit
      if (proxy.exitCode === null) proxy.kill("SIGKILL");
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
