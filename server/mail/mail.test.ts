import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { redactSecret } from "./smtp-mailer.ts";
import { renderMail } from "./templates/index.ts";
import { retryDelay } from "./worker.ts";

const context = { publicUrl: "https://shop.example" };

describe("mail configuration", () => {
  it("sends from no-reply at PUBLIC_URL's host unless MAIL_FROM says otherwise", () => {
    expect(loadConfig({}).MAIL_FROM).toBe("Storefront <no-reply@localhost>");
    expect(loadConfig({ PUBLIC_URL: "https://shop.example:8443/" }).MAIL_FROM).toBe("Storefront <no-reply@shop.example>");
    expect(loadConfig({ MAIL_FROM: "Orders <orders@shop.example>" }).MAIL_FROM).toBe("Orders <orders@shop.example>");
    expect(() => loadConfig({ MAIL_FROM: "not an address" })).toThrow(/^Invalid environment variable MAIL_FROM/);
  });

  it("names a malformed SMTP_URL without printing it (it holds a password)", () => {
    expect(loadConfig({ SMTP_URL: "smtps://u:p@mail.example:465" }).SMTP_URL).toBe("smtps://u:p@mail.example:465");
    let message = "";
    try {
      loadConfig({ SMTP_URL: "http://user:hunter2@mail.example" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^Invalid environment variable SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(message).not.toContain("hunter2");
  });

  it("keeps SMTP_URL's password and user out of an error message, plain or URL-encoded", () => {
    const url = "smtp://mailer:p%40ss%2Fword@smtp.example:587";
    expect(redactSecret("Invalid login for mailer with p@ss/word at smtp://mailer:p%40ss%2Fword@smtp.example:587", url)).toBe(
      "Invalid login for *** with *** at ***",
    );
  });
});

describe("mail templates", () => {
  const order = {
    orderId: "pi_123",
    amount: 123_456,
    created: Date.UTC(2026, 10, 24, 9, 5),
    lines: [
      { title: "Mug & <Saucer>", amount: 2, priceCents: 50_000 },
      { title: "Spoon", amount: 1, priceCents: 23_456 },
    ],
  };

  it("confirms an order with its lines, quantities, total, date and a link to /orders", () => {
    const mail = renderMail("order_confirmation", JSON.stringify(order), context);
    expect(mail.subject).toBe("Your Storefront order pi_123");
    expect(mail.text).toContain("2 x Mug & <Saucer>: $1,000.00\n1 x Spoon: $234.56");
    expect(mail.text).toContain("Total: $1,234.56");
    expect(mail.text).toContain("Date: November 24, 2026 at 9:05 AM UTC");
    expect(mail.text).toContain("See your orders: https://shop.example/orders");
    expect(mail.html).toContain("Mug &amp; &lt;Saucer&gt;");
    expect(mail.html).not.toContain("<Saucer>");
    expect(mail.html).toContain('href="https://shop.example/orders"');
  });

  it("sends a reset link to /auth/reset with the token", () => {
    const mail = renderMail("password_reset", JSON.stringify({ token: "abc/+=", validMinutes: 15 }), context);
    expect(mail.subject).toBe("Reset your Storefront password");
    expect(mail.text).toContain("https://shop.example/auth/reset?token=abc%2F%2B%3D");
    expect(mail.text).toContain("within 15 minutes");
    expect(mail.html).toContain('href="https://shop.example/auth/reset?token=abc%2F%2B%3D"');
  });

  it("tells the shopper of a refund: the amount and order in the subject, what has been refunded so far", () => {
    const mail = renderMail("refund", JSON.stringify({ orderId: "pi_1", amount: 1999, refundedTotal: 1999, orderAmount: 5000 }), context);
    expect(mail.subject).toBe("Your refund of $19.99 for order pi_1");
    expect(mail.text).toContain("$19.99 of its $50.00 has been refunded so far.");
    expect(mail.html).toContain('href="https://shop.example/orders"');
  });

  it("refuses a kind it has no template for", () => {
    expect(() => renderMail("gift_card", "{}", context)).toThrow(/no template for mail of kind "gift_card"/);
  });
});

describe("retry back-off", () => {
  it("doubles from the base after each failed attempt, up to an hour", () => {
    expect([1, 2, 3, 4].map((attempts) => retryDelay(attempts, 30_000))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelay(20, 30_000)).toBe(60 * 60 * 1000);
  });
});
