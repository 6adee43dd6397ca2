import http from "node:http";
import type { AddressInfo } from "node:net";

export interface StubIntent {
  id: string;
  object: "payment_intent";
  amount: number;
  currency: string;
  status: string;
  client_secret: string;
  created: number;
  metadata: Record<string, string>;
}

export interface StubRefund {
  id: string;
  object: "refund";
  amount: number;
  currency: string;
  status: string;
  payment_intent: string;
  created: number;
  metadata: Record<string, string>;
}

export interface StubRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  params: URLSearchParams;
}

/**
 * A stand-in for Stripe's API on 127.0.0.1, enough for PaymentIntents: the Stripe SDK talks to it
 * over HTTP as it would to Stripe, so tests see the exact parameters and headers it sends.
 */
export async function startStripeStub() {
  const intents = new Map<string, StubIntent>();
  /** Refunds by their Idempotency-Key, as Stripe keeps them: a retried create gets the same one. */
  const refunds = new Map<string, StubRefund>();
  /** While true, the Refunds API answers 500 (Stripe having a bad minute). */
  const outage = { refunds: false };
  const requests: StubRequest[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const path = req.url ?? "/";
      const params = new URLSearchParams(body);
      requests.push({ method: req.method ?? "GET", path, headers: req.headers, params });
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { "content-type": "application/json", "request-id": `req_${requests.length}` });
        res.end(JSON.stringify(value));
      };
      if (req.method === "POST" && path === "/v1/payment_intents") {
        const id = `pi_stub${String(intents.size + 1).padStart(4, "0")}`;
        const metadata: Record<string, string> = {};
        for (const [key, value] of params) {
          const match = /^metadata\[(.+)\]$/.exec(key);
          if (match) metadata[match[1]!] = value;
        }
        const intent: StubIntent = {
          id,
          object: "payment_intent",
          amount: Number(params.get("amount")),
          currency: params.get("currency") ?? "usd",
          status: "requires_payment_method",
          client_secret: `${id}_secret_stub`,
          created: Math.floor(Date.now() / 1000),
          metadata,
        };
        intents.set(id, intent);
        return send(200, intent);
      }
      if (req.method === "POST" && path === "/v1/refunds" && outage.refunds) {
        return send(500, { error: { type: "api_error", message: "An unknown error occurred." } });
      }
      if (req.method === "POST" && path === "/v1/refunds") {
        const key = String(req.headers["idempotency-key"] ?? `none-${requests.length}`);
        const known = refunds.get(key);
        if (known) return send(200, known);
        const intent = intents.get(params.get("payment_intent") ?? "");
        if (!intent || intent.status !== "succeeded") {
          return send(400, { error: { type: "invalid_request_error", code: "charge_not_refundable", message: "This PaymentIntent does not have a successful charge to refund." } });
        }
        const metadata: Record<string, string> = {};
        for (const [name, value] of params) {
          const match = /^metadata\[(.+)\]$/.exec(name);
          if (match) metadata[match[1]!] = value;
        }
        const refund: StubRefund = {
          id: `re_stub${String(refunds.size + 1).padStart(4, "0")}`,
          object: "refund",
          amount: Number(params.get("amount")),
          currency: "usd",
          status: "pending",
          payment_intent: intent.id,
          created: Math.floor(Date.now() / 1000),
          metadata,
        };
        refunds.set(key, refund);
        return send(200, refund);
      }
      const cancel = /^\/v1\/payment_intents\/([^/?]+)\/cancel$/.exec(path);
      if (req.method === "POST" && cancel) {
        const intent = intents.get(cancel[1]!);
        if (!intent) return send(404, { error: { type: "invalid_request_error", code: "resource_missing", message: `No such payment_intent: '${cancel[1]}'` } });
        if (intent.status === "succeeded" || intent.status === "canceled") {
          const message = `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`;
          return send(400, { error: { type: "invalid_request_error", code: "payment_intent_unexpected_state", message } });
        }
        intent.status = "canceled";
        return send(200, intent);
      }
      const one = /^\/v1\/payment_intents\/([^/?]+)/.exec(path);
      if (req.method === "GET" && one) {
        const intent = intents.get(one[1]!);
        return intent ? send(200, intent) : send(404, { error: { type: "invalid_request_error", code: "resource_missing", message: `No such payment_intent: '${one[1]}'` } });
      }
      send(404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${path})` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    api: { host: "127.0.0.1", port, protocol: "http" as const },
    intents,
    refunds,
    outage,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
