import http from "node:http";
import type { AddressInfo } from "node:net";

/** A span as OTLP/HTTP JSON carries it (the fields the tests read). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  /** The W3C tracestate the span carries, when any. */
  traceState?: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** The resource's service.name. */
  service: string;
}

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value: AnyValue };
interface ExportRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{ spans?: Array<Omit<ReceivedSpan, "attributes" | "service"> & { attributes?: KeyValue[] }> }>;
  }>;
}

const plain = (value: AnyValue) => value.stringValue ?? value.boolValue ?? value.doubleValue ?? Number(value.intValue);
const attributes = (list: KeyValue[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, plain(value)]));

/**
 * An OTLP/HTTP receiver on 127.0.0.1 taking JSON (what @opentelemetry/exporter-trace-otlp-http
 * sends): POST /v1/traces. Ids arrive as hex strings in JSON.
 */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const waiters = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/traces" || !req.headers["content-type"]?.startsWith("application/json")) {
        return void res.writeHead(415, { "content-type": "application/json" }).end("{}");
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ExportRequest;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = String(attributes(resourceSpans.resource?.attributes)["service.name"]);
        for (const scope of resourceSpans.scopeSpans ?? [])
          for (const span of scope.spans ?? []) spans.push({ ...span, attributes: attributes(span.attributes), service });
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    spans,
    /** Resolves with the spans once `found` holds for them (or rejects after `timeoutMs`). */
    async until(found: (spans: ReceivedSpan[]) => boolean, timeoutMs = 15_000): Promise<ReceivedSpan[]> {
      if (found(spans)) return spans;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the expected spans did not arrive within ${timeoutMs} ms; got ${spans.map((s) => s.name).join(", ")}`));
        }, timeoutMs);
        const check = () => {
          if (!found(spans)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(spans);
        };
        waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
