// What the back-office and catalogue benches measure with: an admin's cookies for the back office's
// API, and a load's percentiles taken from every response's time (autocannon's histogram has no p95).
import autocannon from "autocannon";
import { confirmAddress } from "./outbox-mail.ts";

/** Signs up `email` and confirms the address from its mail, which makes it an admin (ADMIN_EMAILS); its cookies. */
export async function adminCookie(base: string, dataDir: string, email: string, origin: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ email, password: "correct horse battery", name: "bench" }),
  });
  if (response.status !== 200) throw new Error(`admin sign-up failed: ${response.status} ${await response.text()}`);
  await confirmAddress(base, origin, dataDir, email);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

export interface Measured {
  rps: number;
  /** Requests answered. */
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  /** Failed requests and answers other than 2xx. */
  errors: number;
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

export interface LoadOptions {
  /** 10 unless said. */
  connections?: number;
  /** The path of each request in turn (on `url`'s origin); `url` itself when not given. */
  next?: () => string;
}

/** Loads `url` for `duration` seconds, gzip accepted, keeping every response's time; `cookie` "" sends none. */
export async function measure(url: string, cookie: string, duration: number, { connections = 10, next }: LoadOptions = {}): Promise<Measured> {
  const times: number[] = [];
  // Each request's path set as it is sent: a varied load without a list of requests per connection.
  const varied = next && { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: next() }) }] };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections, duration, headers: { ...(cookie && { cookie }), "accept-encoding": "gzip" }, ...varied }, (error, done) => (error ? reject(error) : resolve(done)));
    instance.on("response", (_client, _status, _bytes, responseTime) => times.push(responseTime));
  });
  times.sort((a, b) => a - b);
  return {
    rps: result.requests.average,
    requests: result.requests.total,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    errors: result.errors + result.non2xx,
  };
}
