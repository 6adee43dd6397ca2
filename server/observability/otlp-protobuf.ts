import type { SpanHead } from "./otlp-exporter.ts";
import type { SpanAttributes } from "./port.ts";
import { perRequestShape, type SpanShape } from "./span-shape.ts";

// OTLP/HTTP's binary form (`http/protobuf`, the specification's default protocol): the messages of
// opentelemetry-proto's collector/trace/v1 ExportTraceServiceRequest, written by hand for the few
// shapes the shop sends. About 185 bytes a request's span against 410 in JSON: ids as bytes, not
// hex; times as fixed 64-bit words, not decimal text; no field names.
//
// Field numbers (opentelemetry/proto/trace/v1/trace.proto, common/v1/common.proto):
//   ExportTraceServiceRequest: resource_spans 1
//   ResourceSpans: resource 1, scope_spans 2          Resource: attributes 1
//   ScopeSpans: scope 1, spans 2                      InstrumentationScope: name 1
//   Span: trace_id 1, span_id 2, trace_state 3, parent_span_id 4, name 5, kind 6,
//         start_time_unix_nano 7 (fixed64), end_time_unix_nano 8 (fixed64), attributes 9, status 15
//   Status: code 3                                    KeyValue: key 1, value 2
//   AnyValue: string_value 1, bool_value 2, int_value 3 (int64), double_value 4 (double)

/** A field's key byte: its number and wire type (0 varint, 1 fixed64, 2 length-delimited). */
const key = (field: number, wire: 0 | 1 | 2) => (field << 3) | wire;
const LEN = 2;

const KIND = { server: 2, client: 3 } as const;
const STATUS_ERROR = 2;

/** Bytes a varint of `n` (0 <= n < 2^32) takes. */
export const varintSize = (n: number): number => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);

/** Writes `n` (0 <= n < 2^32) as a varint at `at`; the position after it. */
export function writeVarint(bytes: Buffer, at: number, n: number): number {
  while (n >= 0x80) {
    bytes[at++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  bytes[at++] = n;
  return at;
}

/** An int64 as protobuf writes it: a varint of its two's complement (ten bytes for a negative one). */
function int64Varint(n: number): Buffer {
  let value = BigInt.asUintN(64, BigInt(Math.trunc(n)));
  const out: number[] = [];
  while (value >= 0x80n) {
    out.push(Number(value & 0x7fn) | 0x80);
    value >>= 7n;
  }
  out.push(Number(value));
  return Buffer.from(out);
}

const TWO_32 = 2 ** 32;

/**
 * Writes epoch milliseconds (fractions allowed) as fixed64 nanoseconds, little-endian, exactly as
 * unixNanos writes them in decimal: whole milliseconds times a million plus the fraction rounded to
 * the nanosecond (beyond 2^53, so in two words, not as one double).
 */
export function writeNanos(bytes: Buffer, at: number, ms: number): number {
  let whole = Math.floor(ms);
  let fraction = Math.round((ms - whole) * 1e6);
  if (fraction >= 1e6) {
    whole += 1;
    fraction = 0;
  }
  // whole = high * 2^16 + low; nanoseconds = high * 1e6 * 2^16 + (low * 1e6 + fraction), each part exact.
  const high = Math.floor(whole / 65536);
  const low = whole - high * 65536;
  const top = high * 1e6; // < 2^53
  const rest = low * 1e6 + fraction; // < 2^37
  const topLow = (top % 65536) * 65536; // the part of top * 2^16 below 2^32
  const lowSum = topLow + (rest % TWO_32);
  const lowWord = lowSum % TWO_32;
  const highWord = Math.floor(top / 65536) + Math.floor(rest / TWO_32) + Math.floor(lowSum / TWO_32);
  bytes.writeUInt32LE(lowWord, at);
  bytes.writeUInt32LE(highWord >>> 0, at + 4);
  return at + 8;
}

/** A length-delimited field holding `content`. */
function lengthField(field: number, content: Buffer): Buffer {
  const head = Buffer.alloc(1 + varintSize(content.length));
  writeVarint(head, writeVarint(head, 0, key(field, LEN)), content.length);
  return Buffer.concat([head, content]);
}

const stringField = (field: number, text: string) => lengthField(field, Buffer.from(text, "utf8"));

function anyValue(value: string | number | boolean): Buffer {
  if (typeof value === "string") return stringField(1, value);
  if (typeof value === "boolean") return Buffer.from([key(2, 0), value ? 1 : 0]);
  if (Number.isInteger(value)) return Buffer.concat([Buffer.from([key(3, 0)]), int64Varint(value)]);
  const double = Buffer.alloc(9);
  double[0] = key(4, 1);
  double.writeDoubleLE(value, 1);
  return double;
}

/** Repeated KeyValue fields (number `field`) for `attributes`, undefined values left out. */
export function keyValues(field: number, attributes: SpanAttributes): Buffer {
  const fields: Buffer[] = [];
  for (const name in attributes) {
    const value = attributes[name];
    if (value === undefined) continue;
    fields.push(lengthField(field, Buffer.concat([stringField(1, name), lengthField(2, anyValue(value))])));
  }
  return Buffer.concat(fields);
}

/** A span's fields after its ids and times: name, kind, attributes and, for an error, its status. */
export function tailOf(span: SpanShape): Buffer {
  return Buffer.concat([
    stringField(5, span.name),
    Buffer.from([key(6, 0), KIND[span.kind]]),
    keyValues(9, span.error ? { ...span.attributes, "error.type": span.error } : span.attributes),
    span.error ? lengthField(15, Buffer.from([key(3, 0), STATUS_ERROR])) : Buffer.alloc(0),
  ]);
}

/** The tail of a request's span, kept per route, method and status. */
export const serverTail = perRequestShape(tailOf);

/** ids (16 and 8 bytes), the parent's (8), times (2 x 8), each with its key; the trace state's bytes apart. */
const headSize = (span: SpanHead, traceState: number) =>
  18 + 10 + (span.parentSpanId ? 10 : 0) + (span.traceState ? 1 + varintSize(traceState) + traceState : 0) + 18;

function writeHead(bytes: Buffer, at: number, span: SpanHead, traceState: number): number {
  bytes[at++] = key(1, LEN);
  bytes[at++] = 16;
  at += bytes.write(span.traceId, at, 16, "hex");
  bytes[at++] = key(2, LEN);
  bytes[at++] = 8;
  at += bytes.write(span.spanId, at, 8, "hex");
  if (span.traceState) {
    bytes[at++] = key(3, LEN);
    at = writeVarint(bytes, at, traceState);
    // W3C trace state is printable ASCII (trace-context.ts drops any other): one byte a character.
    at += bytes.write(span.traceState, at, traceState, "latin1");
  }
  if (span.parentSpanId) {
    bytes[at++] = key(4, LEN);
    bytes[at++] = 8;
    at += bytes.write(span.parentSpanId, at, 8, "hex");
  }
  bytes[at++] = key(7, 1);
  at = writeNanos(bytes, at, span.startMs);
  bytes[at++] = key(8, 1);
  return writeNanos(bytes, at, span.endMs);
}

/** A span's length as a ScopeSpans `spans` field: key, length and content. */
export function spanFieldSize(span: SpanHead, tail: Buffer): number {
  const length = headSize(span, span.traceState?.length ?? 0) + tail.length;
  return 1 + varintSize(length) + length;
}

/** Writes a span as a ScopeSpans `spans` field at `at` (room for spanFieldSize bytes); the position after it. */
export function writeSpanField(bytes: Buffer, at: number, span: SpanHead, tail: Buffer): number {
  const traceState = span.traceState?.length ?? 0;
  bytes[at++] = key(2, LEN);
  at = writeVarint(bytes, at, headSize(span, traceState) + tail.length);
  at = writeHead(bytes, at, span, traceState);
  return at + tail.copy(bytes, at);
}

/**
 * The export request's envelope ahead of `spansLength` bytes of spans: the request's resource_spans,
 * the resource, and the scope's spans field holding the scope ("storefront") and the spans.
 */
export function envelope(resource: Record<string, string>): (spansLength: number) => Buffer {
  const resourceField = lengthField(1, keyValues(1, resource));
  const scopeField = lengthField(1, stringField(1, "storefront"));
  return (spansLength) => {
    const scopeSpans = scopeField.length + spansLength;
    const resourceSpans = resourceField.length + 1 + varintSize(scopeSpans) + scopeSpans;
    const head = Buffer.alloc(1 + varintSize(resourceSpans) + resourceField.length + 1 + varintSize(scopeSpans) + scopeField.length);
    let at = writeVarint(head, writeVarint(head, 0, key(1, LEN)), resourceSpans);
    at += resourceField.copy(head, at);
    at = writeVarint(head, writeVarint(head, at, key(2, LEN)), scopeSpans);
    scopeField.copy(head, at);
    return head;
  };
}
