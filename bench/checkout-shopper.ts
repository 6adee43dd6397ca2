// One shopper of bench/checkout.ts: signed in once, then checking out over and over with the
// requests the browser makes, every answer checked. node:http with one kept-alive connection per
// shopper, so the load generator stays cheap beside the shop.
import http from "node:http";
import zlib from "node:zlib";
import { TEST_CARD } from "../lib/card.ts";

const PASSWORD = "correct horse battery";
const REQUEST_TIMEOUT_MS = 10_000;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Decompressed, as the browser would read it. */
  text: string;
}

function decode(encoding: string | undefined, body: Buffer): Buffer {
  if (encoding === "gzip") return zlib.gunzipSync(body);
  if (encoding === "deflate") return zlib.inflateSync(body);
  if (encoding === "br") return zlib.brotliDecompressSync(body);
  return body;
}

/** One request as a browser sends it (same-origin fetch; a JSON body carries the shop's origin). */
export function request(base: string, agent: http.Agent, method: "GET" | "POST", target: string, headers: Record<string, string>, body?: { origin: string; json: unknown }): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body.json);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${target}`,
      {
        method,
        agent,
        headers: {
          // What a browser sends along with every same-origin fetch.
          "accept-encoding": "gzip, deflate, br",
          "sec-fetch-site": "same-origin",
          ...(payload === undefined ? {} : { "content-type": "application/json", origin: body!.origin, "content-length": String(Buffer.byteLength(payload)) }),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          try {
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text: decode(res.headers["content-encoding"], Buffer.concat(chunks)).toString() });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`${method} ${target} timed out`)));
    req.on("error", reject);
    req.end(payload);
  });
}

export function expectOk(step: string, answer: Answer): void {
  if (answer.status < 200 || answer.status > 299) throw new Error(`${step} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
}

export interface Product {
  id: number;
  priceCents: number;
}

/** The prices the product pages showed the shopper; the server checks the total against its own. */
export async function cataloguePrices(base: string): Promise<Product[]> {
  const agent = new http.Agent();
  try {
    const catalogue = await request(base, agent, "GET", "/api/catalogue/products", {});
    expectOk("catalogue", catalogue);
    return (JSON.parse(catalogue.text) as Array<{ id: number; price: number }>).map(({ id, price }) => ({ id, priceCents: Math.round(price * 100) }));
  } finally {
    agent.destroy();
  }
}

export interface StepTimes {
  create: number;
  confirm: number;
  orders: number;
}

export class Shopper {
  // With a timeout set, the agent drops an idle connection a second before the server's Keep-Alive
  // hint says the server will, rather than sending a request on a connection being closed.
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1, timeout: REQUEST_TIMEOUT_MS });
  /** The shopper's cookies, kept as a browser keeps them (the session's, and any the server adds). */
  private readonly cookies = new Map<string, string>();
  /** Payments confirmed, whether or not the rest of their checkout went well. */
  paid = 0;

  constructor(
    private readonly base: string,
    /** The shop's public origin: writes must come from it (the same-origin rule) as a browser's do. */
    private readonly origin: string,
    private readonly email: string,
    private readonly products: Product[],
    /** A sale: every basket is one unit of the same product, which every checkout then waits its turn for. */
    private readonly sale = false,
  ) {}

  /** Registers, then signs in as a returning shopper would, keeping that session. */
  async signIn(): Promise<void> {
    const body = { email: this.email, password: PASSWORD };
    expectOk("sign-up", await this.send("POST", "/api/auth/sign-up/email", { ...body, name: this.email }));
    this.cookies.clear();
    expectOk("sign-in", await this.send("POST", "/api/auth/sign-in/email", body));
    if (!this.cookies.has("storefront.session_token")) throw new Error("sign-in set no session cookie");
  }

  /** One checkout, as app/routes/payment.tsx and app/payments/TestCardField.tsx make it; the time of each step. */
  async checkOut(): Promise<StepTimes> {
    const items = this.basket();
    const total = items.reduce((sum, item) => sum + this.products.find((p) => p.id === item.id)!.priceCents * item.amount, 0);

    const started = performance.now();
    const created = await this.send("POST", "/api/payment/create", { items, total });
    expectOk("create", created);
    const clientSecret = (JSON.parse(created.text) as { clientSecret?: unknown }).clientSecret;
    const intentId = typeof clientSecret === "string" ? /^(pi_\w+?)_secret_/.exec(clientSecret)?.[1] : undefined;
    if (typeof clientSecret !== "string" || !intentId) throw new Error(`create gave no client secret: ${created.text.slice(0, 200)}`);

    const afterCreate = performance.now();
    const card = { number: TEST_CARD.replaceAll(" ", ""), expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvc: "123", postalCode: "10115" };
    const confirmed = await this.send("POST", "/api/payment/confirm", { clientSecret, card });
    expectOk("confirm", confirmed);
    const intent = (JSON.parse(confirmed.text) as { paymentIntent?: { id?: unknown; amount?: unknown } }).paymentIntent;
    if (intent?.id !== intentId || intent.amount !== total) throw new Error(`confirm answered for another payment: ${confirmed.text.slice(0, 200)}`);
    this.paid++;

    // The browser then goes to /orders: a client-side navigation, so React Router fetches the
    // orders route's data only (the root's loader does not run again).
    const afterConfirm = performance.now();
    const orders = await this.send("GET", "/orders.data?_routes=routes%2Forders");
    expectOk("orders", orders);
    // The newest order comes first on the first page: the one just paid for must be on it. (The
    // page's orders travel as one JSON text inside React Router's answer, their quotes escaped:
    // app/orders/page-order.ts; an intent id is unique text either way.)
    if (!orders.text.includes(intentId)) throw new Error(`the orders page does not list order ${intentId}`);
    const done = performance.now();
    return { create: afterCreate - started, confirm: afterConfirm - afterCreate, orders: done - afterConfirm };
  }

  private async send(method: "GET" | "POST", target: string, json?: unknown): Promise<Answer> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const answer = await request(this.base, this.agent, method, target, cookie ? { cookie } : {}, json === undefined ? undefined : { origin: this.origin, json });
    for (const line of answer.headers["set-cookie"] ?? []) {
      const [, name, value] = /^([^=;]+)=([^;]*)/.exec(line) ?? [];
      if (!name) continue;
      if (!value || /;\s*max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return answer;
  }

  close(): void {
    this.agent.destroy();
  }

  /** One to three different products, one to three of each; in a sale, one unit of the first product. */
  private basket(): Array<{ id: number; amount: number }> {
    if (this.sale) return [{ id: this.products[0]!.id, amount: 1 }];
    const lines = 1 + Math.floor(Math.random() * 3);
    const picked = [...this.products].sort(() => Math.random() - 0.5).slice(0, lines);
    return picked.map((product) => ({ id: product.id, amount: 1 + Math.floor(Math.random() * 3) }));
  }
}
