import fs from "node:fs";
import { describe, expect, it } from "vitest";

// SECURITY.md at the repository's root says what the shop promises, what an operator must do in
// production and how to report a problem; the README links it.

const doc = fs.readFileSync(new URL("../SECURITY.md", import.meta.url), "utf8");

describe("SECURITY.md", () => {
  it("is linked from the README", () => {
    expect(fs.readFileSync(new URL("../README.md", import.meta.url), "utf8")).toContain("](SECURITY.md)");
  });

  it.each(["## What the shop promises", "## What an operator must do in production", "## Reporting a problem"])("has the section %s", (heading) => {
    expect(doc).toContain(heading);
  });

  it.each([
    ["cookie flags", /HttpOnly[\s\S]*SameSite=Lax[\s\S]*Secure/],
    ["the CSP", /Content-Security-Policy/],
    ["origin checks", /Origin/],
    ["rate limits", /AUTH_RATE_LIMIT_MAX[\s\S]*PAYMENT_CREATE_RATE_LIMIT/],
    ["what is stored about cards", /brand and last four digits/],
    ["test mode vs Stripe", /\*\*Test mode\*\*[\s\S]*\*\*Stripe mode\*\*/],
    ["an https PUBLIC_URL", /https[\s\S]{0,40}`PUBLIC_URL`/],
    ["TRUST_PROXY", /TRUST_PROXY/],
    ["Stripe keys", /STRIPE_SECRET_KEY/],
    ["backups", /Backups/],
  ])("covers %s", (_topic, pattern) => {
    expect(doc).toMatch(pattern);
  });
});
