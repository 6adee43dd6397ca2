import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { nginxBinary } from "../../test/support/local-cluster.ts";

// deploy/nginx.conf is what compose.yaml runs: Debian's nginx checks it here (`nginx -t`), with the
// instances' compose names (app1, app2), which only resolve inside compose, made local addresses.

const nginx = nginxBinary();
if (!nginx && process.env.REQUIRE_NGINX === "1") throw new Error("REQUIRE_NGINX=1 but nginx is not installed (Debian: apt-get install -y nginx)");
if (!nginx) console.log("deploy/nginx.conf not checked: nginx is not installed (Debian: apt-get install -y nginx; .ci/run installs it).");

describe.skipIf(!nginx)("deploy/nginx.conf", () => {
  it("is a configuration nginx accepts", () => {
    const shipped = fs.readFileSync(new URL("../../deploy/nginx.conf", import.meta.url), "utf8");
    const local = shipped.replace(/server app(\d+):3000/g, (_all, n: string) => `server 127.0.0.1:${3000 + Number(n)}`);
    expect(local).not.toContain("app1:3000");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-nginx-check-"));
    try {
      fs.writeFileSync(path.join(dir, "nginx.conf"), local);
      const run = () => execFileSync(nginx!, ["-t", "-q", "-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", path.join(dir, "error.log")], { stdio: "pipe" });
      expect(run).not.toThrow();
      // And it would say so were a directive wrong.
      fs.writeFileSync(path.join(dir, "nginx.conf"), local.replace("keepalive_timeout 3s;", "keepalive_timeout three;"));
      expect(run).toThrow(/invalid value/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
