// `npm run scale:demo`: two Storefront instances on one PostgreSQL behind a local nginx, on
// 127.0.0.1, without Docker. DATABASE_URL names the database (default: the local `postgres`
// database, schema `storefront_demo`). With Debian's prometheus installed, a Prometheus scrapes
// every instance (deploy/prometheus.yml, alerts.yml). Ctrl-C stops everything.
import pg from "pg";
import { startCluster } from "../test/support/local-cluster.ts";
import { prometheusBinary, startPrometheus } from "./prometheus.ts";

const base = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
let databaseUrl = base;
if (!process.env.DATABASE_URL) {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query("create schema if not exists storefront_demo");
  await admin.end();
  databaseUrl = `${base}?options=${encodeURIComponent("-c search_path=storefront_demo")}`;
}

const cluster = await startCluster({ databaseUrl, instances: Number(process.env.INSTANCES ?? 2) });
console.log(`Storefront behind nginx: ${cluster.url}`);
for (const instance of cluster.instances) console.log(`  ${instance.name}: ${instance.url} (metrics: http://${instance.metricsAddress}/metrics)`);
const binary = prometheusBinary();
const prometheus = binary ? await startPrometheus({ binary, targets: cluster.instances.map((i) => i.metricsAddress) }) : null;
console.log(prometheus ? `Prometheus: ${prometheus.url}` : "No Prometheus (Debian: apt-get install -y prometheus) scraping the instances.");
console.log("Ctrl-C stops it.");

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await prometheus?.close();
  await cluster.close();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
