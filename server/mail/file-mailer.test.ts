import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { memoryLogger } from "../../test/support/logger.ts";
import { loadConfig } from "../config.ts";
import { createMailer } from "./service.ts";

const mode = (file: string) => fs.statSync(file).mode & 0o777;
const roots: string[] = [];
afterEach(() => {
  while (roots.length) fs.rmSync(roots.pop()!, { recursive: true, force: true });
});

const message = (id: string) => ({
  messageId: `<${id}@shop.example>`,
  from: "Storefront <no-reply@shop.example>",
  to: "pat@example.com",
  subject: "Reset your Storefront password",
  text: "https://shop.example/reset-password?token=live",
  html: "<p>https://shop.example/reset-password?token=live</p>",
  date: new Date("2026-11-24T10:00:00Z"),
});

describe("the local mail outbox on disk", () => {
  it("keeps mail/ at 0700 and each .eml at 0600, also in folders an older version left open, whatever the umask", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-outbox-"));
    roots.push(dataDir);
    fs.mkdirSync(path.join(dataDir, "mail"));
    fs.chmodSync(path.join(dataDir, "mail"), 0o755);
    const umask = process.umask(0o022);
    try {
      const mailer = createMailer(loadConfig({ DATA_DIR: dataDir }), memoryLogger().log);
      await mailer.send(message("first"));
      await mailer.send(message("second"));
      expect(mode(path.join(dataDir, "mail"))).toBe(0o700);
      const files = fs.readdirSync(path.join(dataDir, "mail"));
      expect(files).toHaveLength(2);
      for (const name of files) expect([name, mode(path.join(dataDir, "mail", name))]).toEqual([expect.stringMatching(/\.eml$/), 0o600]);
    } finally {
      process.umask(umask);
    }
  });

  it("makes mail/ 0700 when it creates it, DATA_DIR included", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-outbox-"));
    roots.push(root);
    const dataDir = path.join(root, "data");
    const umask = process.umask(0o022);
    try {
      await createMailer(loadConfig({ DATA_DIR: dataDir }), memoryLogger().log).send(message("first"));
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(path.join(dataDir, "mail"))).toBe(0o700);
    } finally {
      process.umask(umask);
    }
  });
});
