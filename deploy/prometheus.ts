import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../test/support/local-cluster.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Debian's prometheus package puts the binary here; PROMETHEUS_PATH overrides it. */
export function prometheusBinary(): string | null {
  const candidates = [process.env.PROMETHEUS_PATH, "/usr/bin/prometheus"].filter((p): p is string => Boolean(p));
  return candidates.find((p) => fs.existsSync(p)) ?? null;
}

export interface RunningPrometheus {
  /** Its web UI and HTTP API (/api/v1/query). */
  url: string;
  /** The result of an instant query: one { labels, value } per series. */
  query(promql: string): Promise<Array<{ labels: Record<string, string>; value: number }>>;
  close(): Promise<void>;
}

/**
 * A throwaway Prometheus on 127.0.0.1 running deploy/prometheus.yml and alerts.yml as they are,
 * with a targets file of its own (the instances' metrics listeners, "127.0.0.1:port").
 * `scrapeSeconds` shortens the scrape interval (tests: answers in a second, not fifteen).
 */
export async function startPrometheus(options: { binary: string; targets: string[]; scrapeSeconds?: number }): Promise<RunningPrometheus> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-prometheus-"));
  let config = fs.readFileSync(path.join(HERE, "prometheus.yml"), "utf8");
  if (options.scrapeSeconds) config = config.replace(/(scrape|evaluation)_interval: \d+s/g, `$1_interval: ${options.scrapeSeconds}s`);
  fs.writeFileSync(path.join(dir, "prometheus.yml"), config);
  fs.copyFileSync(path.join(HERE, "alerts.yml"), path.join(dir, "alerts.yml"));
  fs.mkdirSync(path.join(dir, "prometheus-targets"));
  fs.writeFileSync(path.join(dir, "prometheus-targets", "local.json"), JSON.stringify([{ targets: options.targets, labels: { deployment: "local" } }]));

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    options.binary,
    [`--config.file=${path.join(dir, "prometheus.yml")}`, `--storage.tsdb.path=${path.join(dir, "data")}`, `--web.listen-address=127.0.0.1:${port}`, "--log.level=warn"],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));

  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}: ${stderr}`);
    const ready = await fetch(`${url}/-/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`prometheus was not ready within 20 s: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    url,
    async query(promql) {
      const response = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: promql })}`);
      const body = (await response.json()) as { status: string; error?: string; data?: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } };
      if (body.status !== "success") throw new Error(`query ${promql} failed: ${body.error}`);
      return (body.data?.result ?? []).map((r) => ({ labels: r.metric, value: Number(r.value[1]) }));
    },
    async close() {
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
