import { OtlpSender } from "./otlp-sender.ts";
import { envelope, serverTail, spanFieldSize, tailOf, writeSpanField } from "./otlp-protobuf.ts";
import type { SpanAttributes } from "./port.ts";
import { perRequestShape, type SpanShape } from "./span-shape.ts";

/** A span's ids and times. Times are epoch milliseconds (fractions allowed). */
export interface SpanHead {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  traceState?: string;
  startMs: number;
  endMs: number;
}

/** A finished span, as the exporter takes it. */
export type FinishedSpan = SpanHead & SpanShape;

/** OTEL_EXPORTER_OTLP_PROTOCOL's values the shop speaks: binary protobuf (the default) or JSON. */
export type OtlpProtocol = "http/protobuf" | "http/json";

export interface OtlpExporterOptions {
  url: string;
  /** How spans are written: otlp-protobuf.ts, or the JSON here. */
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  timeoutMs: number;
  compression: "gzip" | "none";
  /** Longest a span waits before it is sent (OTEL_BSP_SCHEDULE_DELAY). */
  scheduleDelayMs: number;
  /** Spans held at most; more are dropped and counted (OTEL_BSP_MAX_QUEUE_SIZE). */
  maxQueueSize: number;
  /** Spans per export request (OTEL_BSP_MAX_EXPORT_BATCH_SIZE). */
  maxBatchSize: number;
  /** The resource's attributes (service.name and the rest), the same for every span. */
  resource: Record<string, string>;
  /** An export failed or spans were dropped: for the log. */
  onProblem(problem: { reason: string; spans: number }): void;
}

const KIND = { server: 2, client: 3 } as const;
const STATUS_ERROR = 2;

/** OTLP/JSON's AnyValue for an attribute value. */
function anyValue(value: string | number | boolean): string {
  if (typeof value === "string") return `{"stringValue":${JSON.stringify(value)}}`;
  if (typeof value === "boolean") return `{"boolValue":${value}}`;
  return Number.isInteger(value) ? `{"intValue":"${value}"}` : `{"doubleValue":${value}}`;
}

function keyValues(attributes: SpanAttributes): string {
  let out = "";
  for (const key in attributes) {
    const value = attributes[key];
    if (value === undefined) continue;
    out += `${out ? "," : ""}{"key":${JSON.stringify(key)},"value":${anyValue(value)}}`;
  }
  return `[${out}]`;
}

/** Epoch milliseconds as OTLP's decimal nanoseconds (beyond 2^53, so written as text, not multiplied). */
export function unixNanos(ms: number): string {
  const whole = Math.floor(ms);
  const fraction = Math.round((ms - whole) * 1e6);
  // 1e6 + fraction has seven digits: the last six are the fraction, zero-padded.
  return fraction >= 1e6 ? `${whole + 1}000000` : `${whole}${String(1e6 + fraction).slice(1)}`;
}

/** A span's JSON after its times: name, kind, attributes and, for an error, its status; and the closing brace. */
function tailJson(span: SpanShape): string {
  return (
    `,"name":${JSON.stringify(span.name)},"kind":${KIND[span.kind]}` +
    `,"attributes":${keyValues(span.error ? { ...span.attributes, "error.type": span.error } : span.attributes)}` +
    (span.error ? `,"status":{"code":${STATUS_ERROR}}` : "") +
    "}"
  );
}

/** A span's JSON up to its times. */
function headJson(span: SpanHead): string {
  return (
    `{"traceId":"${span.traceId}","spanId":"${span.spanId}"` +
    (span.parentSpanId ? `,"parentSpanId":"${span.parentSpanId}"` : "") +
    (span.traceState ? `,"traceState":${JSON.stringify(span.traceState)}` : "") +
    `,"startTimeUnixNano":"${unixNanos(span.startMs)}","endTimeUnixNano":"${unixNanos(span.endMs)}"`
  );
}

const serverSpanTail = perRequestShape(tailJson);

/**
 * A request's span as OTLP/JSON, written in one go: every request has one, so it is the one span
 * whose cost counts (docs/BENCHMARKS.md); the same fields as spanJson gives (the times come before
 * the name here).
 */
export function serverSpanJson(span: SpanHead, method: string, route: string, status: number): string {
  return headJson(span) + serverSpanTail(method, route, status);
}

/** One span as OTLP/JSON (the protobuf JSON mapping: hex ids, int64 as strings). */
export function spanJson(span: FinishedSpan): string {
  return headJson(span) + tailJson(span);
}

/**
 * Spans written as JSON, comma-separated, into memory outside V8's heap that the sending thread
 * reads as it is (shared, not copied or handed over), between the export request's opening and
 * closing JSON.
 */
interface Batch {
  bytes: Buffer;
  /** Where the export request starts: 0 in JSON; in protobuf, where its envelope was written once the spans' length was known. */
  start: number;
  length: number;
  spans: number;
}

/** A batch's room: a span of the catalogue API is about 410 bytes in JSON, 185 in protobuf; a long statement's can be several KB. */
const BATCH_BYTES = 256 * 1024;
const SUFFIX = "]}]}]}";

/**
 * Spans to an OTLP/HTTP endpoint, batched like the SDK's BatchSpanProcessor: a span is written
 * (protobuf or JSON) into a batch buffer the moment it ends, and the batch is sent once it is full or
 * the schedule delay has passed, one request at a time, from a worker thread (otlp-sender.ts). The
 * buffer lives outside V8's heap: spans kept as objects or strings until their batch goes would
 * survive the young generation's collections and be copied into the old one, which cost more than
 * the rest of tracing together (docs/BENCHMARKS.md). Batch buffers are shared with the sending
 * thread and used again once their batch has gone: a new buffer per batch, handed over with
 * `postMessage`, cost the serving thread a page-faulted allocation and a slow transfer per batch,
 * and the sending thread a copy into the request's body. A full queue drops new spans and says so;
 * a failed export is dropped (no retry: the next batch is already coming) and says so.
 */
export class OtlpExporter {
  /**
   * What starts every batch's buffer: in JSON the export request's opening (the resource); in
   * protobuf room for the envelope, whose lengths are known only once the batch is full.
   */
  private readonly prefix: Buffer;
  /** Protobuf: the envelope ahead of a batch's spans, given their length (null in JSON). */
  private readonly envelope: ((spansLength: number) => Buffer) | null;
  /** Buffers of BATCH_BYTES whose batch has gone, to fill again. */
  private readonly spare: Buffer[] = [];
  private filling: Batch;
  private full: Batch[] = [];
  private queued = 0;
  private sending: Promise<void> | null = null;
  private flushSoon = false;
  private dropped = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly sender: OtlpSender;

  constructor(private readonly options: OtlpExporterOptions) {
    const { url, headers, timeoutMs, compression, protocol } = options;
    if (protocol === "http/protobuf") {
      this.envelope = envelope(options.resource);
      // The envelope at its longest: every length a five-byte varint.
      this.prefix = Buffer.alloc(this.envelope(2 ** 31).length);
    } else {
      this.envelope = null;
      this.prefix = Buffer.from(`{"resourceSpans":[{"resource":{"attributes":${keyValues(options.resource)}},"scopeSpans":[{"scope":{"name":"storefront"},"spans":[`);
    }
    this.sender = new OtlpSender({ url, headers, timeoutMs, compression, contentType: protocol === "http/protobuf" ? "application/x-protobuf" : "application/json" });
    this.filling = this.newBatch(0);
    this.timer = setInterval(() => this.flush(), options.scheduleDelayMs).unref();
  }

  /** Queues a request's span (serverSpanJson's, or its protobuf). */
  addServerSpan(span: SpanHead, method: string, route: string, status: number): void {
    if (this.envelope) this.addProtobuf(span, serverTail(method, route, status));
    else this.addJson(serverSpanJson(span, method, route, status));
  }

  /** Queues any span (spanJson's, or its protobuf). */
  addSpan(span: FinishedSpan): void {
    if (this.envelope) this.addProtobuf(span, tailOf(span));
    else this.addJson(spanJson(span));
  }

  private addJson(json: string): void {
    // At most 3 bytes of UTF-8 per UTF-16 unit, a comma, and the closing JSON.
    const batch = this.batchWithRoom(json.length * 3 + 1 + SUFFIX.length);
    if (!batch) return;
    if (batch.spans > 0) batch.bytes[batch.length++] = 0x2c;
    batch.length += batch.bytes.write(json, batch.length);
    this.added(batch);
  }

  private addProtobuf(span: SpanHead, tail: Buffer): void {
    const batch = this.batchWithRoom(spanFieldSize(span, tail));
    if (!batch) return;
    batch.length = writeSpanField(batch.bytes, batch.length, span, tail);
    this.added(batch);
  }

  /** The batch to write a span of at most `room` bytes into (a new one when this one is full); null when the queue is full. */
  private batchWithRoom(room: number): Batch | null {
    if (this.queued >= this.options.maxQueueSize) {
      this.dropped++;
      return null;
    }
    if (this.filling.length + room > this.filling.bytes.length) this.closeBatch(room);
    return this.filling;
  }

  private added(batch: Batch): void {
    batch.spans++;
    this.queued++;
    if (batch.spans >= this.options.maxBatchSize) this.closeBatch(0);
  }

  /** A batch to fill, its buffer starting with the prefix, with room for `room` bytes more. */
  private newBatch(room: number): Batch {
    const size = this.prefix.length + room;
    const bytes = size <= BATCH_BYTES ? (this.spare.pop() ?? Buffer.from(new SharedArrayBuffer(BATCH_BYTES))) : Buffer.from(new SharedArrayBuffer(size));
    return { bytes, start: 0, length: this.prefix.copy(bytes, 0), spans: 0 };
  }

  /** Puts the batch being filled in line to be sent, and starts another with room for at least `room` bytes. */
  private closeBatch(room: number): void {
    const batch = this.filling;
    if (batch.spans > 0) {
      if (this.envelope) {
        // The envelope goes right ahead of the spans, in the room left for it.
        const head = this.envelope(batch.length - this.prefix.length);
        batch.start = this.prefix.length - head.length;
        head.copy(batch.bytes, batch.start);
      } else batch.length += batch.bytes.write(SUFFIX, batch.length, "latin1");
      this.full.push(batch);
    }
    this.filling = batch.spans > 0 || batch.bytes.length < this.prefix.length + room ? this.newBatch(room) : batch;
    // A full batch goes out after the current request's work, not inside it.
    if (this.full.length > 0 && !this.flushSoon) {
      this.flushSoon = true;
      setImmediate(() => {
        this.flushSoon = false;
        this.flush();
      });
    }
  }

  /** Sends the next batch unless one is on its way (that one sends the rest when it is done). */
  private flush(): void {
    if (this.dropped > 0) {
      this.options.onProblem({ reason: "the queue was full", spans: this.dropped });
      this.dropped = 0;
    }
    if (this.sending) return;
    if (this.full.length === 0 && this.filling.spans > 0) this.closeBatch(0);
    const batch = this.full.shift();
    if (!batch) return;
    this.sending = this.sender.send(batch.bytes.subarray(batch.start, batch.length))
      .catch((error: unknown) => this.options.onProblem({ reason: error instanceof Error ? error.message : String(error), spans: batch.spans }))
      .finally(() => {
        this.queued -= batch.spans;
        this.sending = null;
        // The sending thread is done with it (answered or stopped): fill it again.
        if (batch.bytes.length === BATCH_BYTES) this.spare.push(batch.bytes);
        if (this.full.length > 0) this.flush();
      });
  }

  /** Sends everything still queued (at shutdown), batch by batch, and stops the timer. */
  async shutdown(): Promise<void> {
    clearInterval(this.timer);
    while (this.sending || this.full.length > 0 || this.filling.spans > 0) {
      this.flush();
      await this.sending;
    }
    await this.sender.close();
  }
}
