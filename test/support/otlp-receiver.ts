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
  /** All of the resource's attributes. */
  resource: Record<string, string | number | boolean>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value: AnyValue };
interface ExportRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{
      scope?: { name?: string };
      spans?: Array<Omit<ReceivedSpan, "attributes" | "service" | "resource"> & { attributes?: KeyValue[]; startTimeUnixNano?: string; endTimeUnixNano?: string; status?: { code: number } }>;
    }>;
  }>;
}

const plain = (value: AnyValue) => value.stringValue ?? value.boolValue ?? value.doubleValue ?? Number(value.intValue);
const attributes = (list: KeyValue[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, plain(value)]));

/** A protobuf message's fields by number, each value as the wire gives it (varints as bigint, fixed64 and strings as bytes). */
type Fields = Map<number, Array<bigint | Buffer>>;

/** Protobuf's wire format, read without a schema: enough to check what the shop writes against opentelemetry-proto's field numbers. */
function fields(bytes: Buffer): Fields {
  const out: Fields = new Map();
  let at = 0;
  const varint = () => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = bytes[at++];
      if (byte === undefined) throw new Error("a varint runs past the message");
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < bytes.length) {
    const key = Number(varint());
    const [field, wire] = [key >>> 3, key & 7];
    let value: bigint | Buffer;
    if (wire === 0) value = varint();
    else if (wire === 1) value = bytes.subarray(at, (at += 8));
    else if (wire === 2) {
      const length = Number(varint());
      value = bytes.subarray(at, (at += length));
    } else if (wire === 5) value = bytes.subarray(at, (at += 4));
    else throw new Error(`wire type ${wire} is not one OTLP uses`);
    if (at > bytes.length) throw new Error("a field runs past the message");
    out.set(field, [...(out.get(field) ?? []), value]);
  }
  return out;
}

const all = (message: Fields, field: number) => (message.get(field) ?? []) as Buffer[];
const one = (message: Fields, field: number) => message.get(field)?.[0];
const text = (message: Fields, field: number) => (one(message, field) as Buffer | undefined)?.toString("utf8");
const hex = (message: Fields, field: number) => (one(message, field) as Buffer | undefined)?.toString("hex");

/** KeyValue (key 1, value 2: AnyValue string 1, bool 2, int 3, double 4) as OTLP/JSON writes it. */
function keyValue(bytes: Buffer): KeyValue {
  const pair = fields(bytes);
  const value = fields((one(pair, 2) as Buffer | undefined) ?? Buffer.alloc(0));
  const any: AnyValue = {};
  if (value.has(1)) any.stringValue = text(value, 1);
  if (value.has(2)) any.boolValue = one(value, 2) === 1n;
  if (value.has(3)) any.intValue = BigInt.asIntN(64, one(value, 3) as bigint).toString();
  if (value.has(4)) any.doubleValue = (one(value, 4) as Buffer).readDoubleLE(0);
  return { key: text(pair, 1) ?? "", value: any };
}

/** Fixed64 nanoseconds as OTLP/JSON's decimal text. */
const nanos = (message: Fields, field: number) => (one(message, field) as Buffer | undefined)?.readBigUInt64LE(0).toString();

/**
 * An ExportTraceServiceRequest in protobuf, read into the shape OTLP/JSON gives it (ids as hex),
 * by opentelemetry-proto's field numbers: request.resource_spans 1; ResourceSpans.resource 1,
 * .scope_spans 2; Resource.attributes 1; ScopeSpans.scope 1 (InstrumentationScope.name 1), .spans 2; Span.trace_id 1, span_id 2,
 * trace_state 3, parent_span_id 4, name 5, kind 6, start 7, end 8, attributes 9, status 15 (code 3).
 */
export function decodeExportRequest(body: Buffer): ExportRequest & { resourceSpans: NonNullable<ExportRequest["resourceSpans"]> } {
  return {
    resourceSpans: all(fields(body), 1).map((bytes) => {
      const resourceSpans = fields(bytes);
      const resource = fields((one(resourceSpans, 1) as Buffer | undefined) ?? Buffer.alloc(0));
      return {
        resource: { attributes: all(resource, 1).map(keyValue) },
        scopeSpans: all(resourceSpans, 2).map((scopeBytes) => ({
          ...(fields(scopeBytes).has(1) ? { scope: { name: text(fields(one(fields(scopeBytes), 1) as Buffer), 1) } } : {}),
          spans: all(fields(scopeBytes), 2).map((spanBytes) => {
            const span = fields(spanBytes);
            const status = span.has(15) ? fields(one(span, 15) as Buffer) : null;
            return {
              traceId: hex(span, 1) ?? "",
              spanId: hex(span, 2) ?? "",
              ...(span.has(3) ? { traceState: text(span, 3) } : {}),
              ...(span.has(4) ? { parentSpanId: hex(span, 4) } : {}),
              name: text(span, 5) ?? "",
              kind: Number(one(span, 6) ?? 0n),
              startTimeUnixNano: nanos(span, 7),
              endTimeUnixNano: nanos(span, 8),
              attributes: all(span, 9).map(keyValue),
              ...(status ? { status: { code: Number(one(status, 3) ?? 0n) } } : {}),
            };
          }),
        })),
      };
    }),
  };
}

/**
 * An OTLP/HTTP receiver on 127.0.0.1 taking protobuf or JSON, as a collector does: POST /v1/traces.
 * `contentTypes` lists each export's Content-Type, in order.
 */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const waiters = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const type = req.headers["content-type"] ?? "";
      const protobuf = type.startsWith("application/x-protobuf");
      if (req.method !== "POST" || req.url !== "/v1/traces" || !(protobuf || type.startsWith("application/json"))) {
        return void res.writeHead(415, { "content-type": "application/json" }).end("{}");
      }
      contentTypes.push(type);
      const raw = Buffer.concat(chunks);
      const body = protobuf ? decodeExportRequest(raw) : (JSON.parse(raw.toString("utf8")) as ExportRequest);
      for (const resourceSpans of body.resourceSpans ?? []) {
        const resource = attributes(resourceSpans.resource?.attributes);
        const service = String(resource["service.name"]);
        for (const scope of resourceSpans.scopeSpans ?? [])
          for (const span of scope.spans ?? []) spans.push({ ...span, attributes: attributes(span.attributes), service, resource });
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
    contentTypes,
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
