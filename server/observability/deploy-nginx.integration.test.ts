import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkNginxConfig, nginxForTest } from "../../test/support/local-cluster.ts";

// deploy/nginx.conf is what compose.yaml runs: Debian's nginx checks it here (`nginx -t`), with the
// instances' compose names (app1, app2), which only resolve inside compose, made local addresses.

const nginx = nginxForTest("The check of deploy/nginx.conf");

describe.skipIf(!nginx)("deploy/nginx.conf", () => {
  it("is a configuration nginx accepts", () => {
    const shipped = fs.readFileSync(new URL("../../deploy/nginx.conf", import.meta.url), "utf8");
    const local = shipped.replace(/server app(\d+):3000/g, (_all, n: string) => `server 127.0.0.1:${3000 + Number(n)}`);
    expect(local).not.toContain("app1:3000");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-nginx-check-"));
    try {
      fs.writeFileSync(path.join(dir, "nginx.conf"), local);
      const run = () => checkNginxConfig(nginx!, dir);
      expect(run).not.toThrow();
      // And it would say so were a directive wrong.
      fs.writeFileSync(path.join(dir, "nginx.conf"), local.replace("keepalive_timeout 3s;", "keepalive_timeout three;"));
      expect(run).toThrow(/invalid value/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
