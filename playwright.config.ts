import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// Playwright cannot download its own browsers here: the journeys drive the system Chromium.
const chromium = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
if (!fs.existsSync(chromium)) {
  throw new Error(
    `The browser tests need Chromium, and there is none at ${chromium}. ` +
      "Install it (Debian/Ubuntu: sudo apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium or Chrome binary.",
  );
}

const PORT = Number(process.env.E2E_PORT || 4173);
/** The journeys' back-office account (e2e/support.ts signInAsAdmin). */
const ADMIN_EMAIL = "admin@example.com";
// The server's data directory, made once: workers load this file again and must find the same one
// (the mail journey reads the .eml files the server writes under it, E2E_DATA_DIR/mail).
const dataDir = process.env.E2E_DATA_DIR || fs.mkdtempSync(path.join(os.tmpdir(), "storefront-e2e-"));
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  workers: 2,
  forbidOnly: true,
  // One retry in CI only: there the whole suite runs on a 2-core machine shared with its servers
  // and nginx, and a slow moment has timed out a journey that passes alone (hydration over 10 s,
  // a 3 MB upload over 5 s). A journey that passes only on its retry is still reported, as flaky.
  retries: process.env.CI ? 1 : 0,
  // Timeouts catch a journey that hangs; they are not speed targets. The same machine has run the
  // suite several times slower from one hour to the next (a busy host), so they leave room for it.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 1280, height: 900 },
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
      ],
    },
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
  },
  webServer: {
    // `npm run test:e2e` builds first; this serves that build as `npm start` would.
    command: "node --enable-source-maps build/node/main.js",
    url: `http://127.0.0.1:${PORT}/api/health`,
        // Every journey signs in from this one address; the limiter's own tests live in the API tests.
    env: { NODE_ENV: "production", PORT: String(PORT), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", AUTH_RATE_LIMIT_MAX: "10000", ADMIN_EMAILS: ADMIN_EMAIL },
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "pipe",
  },
});
