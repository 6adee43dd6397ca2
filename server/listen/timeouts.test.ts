import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { nginxConfig } from "../../test/support/local-cluster.ts";
import { PROXY_KEEP_ALIVE_MAX_MS } from "./timeouts.ts";

// nginx keeps its connections to the instances open for reuse; an instance closes an idle one after
// KEEP_ALIVE_TIMEOUT_MS, two seconds after PROXY_KEEP_ALIVE_MAX_MS. Were nginx to keep one longer,
// a POST sent on it just as the instance closes it would be answered 502 (seen once under load:
// /api/payment/create through the cluster; proxy-keep-alive.integration.test.ts).

/** Each upstream block's keepalive_timeout, in milliseconds (nginx's default is 60 s). */
function upstreamKeepAlives(config: string): number[] {
  const blocks = [...config.matchAll(/upstream\s+\w+\s*\{([^}]*)\}/g)].map((m) => m[1]!);
  return blocks.map((block) => {
    const setting = /keepalive_timeout\s+(\d+)(ms|s)?;/.exec(block);
    if (!setting) return 60_000;
    return Number(setting[1]) * (setting[2] === "ms" ? 1 : 1000);
  });
}

describe("keep-alive between nginx and the instances", () => {
  it.each([
    ["deploy/nginx.conf", fs.readFileSync(new URL("../../deploy/nginx.conf", import.meta.url), "utf8")],
    ["the local cluster's nginx", nginxConfig("/tmp/storefront-nginx", 8080, [3001, 3002])],
  ])("%s drops its idle connections to the instances first", (_name, config) => {
    const timeouts = upstreamKeepAlives(config);
    expect(timeouts.length).toBeGreaterThan(0);
    for (const timeout of timeouts) expect(timeout).toBeLessThanOrEqual(PROXY_KEEP_ALIVE_MAX_MS);
  });
});
