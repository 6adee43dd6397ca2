import { randomFillSync } from "node:crypto";

/** Where a span sits in its trace (W3C trace context). Ids are lower-case hex. */
export interface SpanContext {
  traceId: string;
  spanId: string;
  /** Whether the trace is recorded (the traceparent's sampled flag, or our sampler's choice). */
  sampled: boolean;
  traceState?: string;
}

const TRACEPARENT = /^([\da-f]{2})-([\da-f]{32})-([\da-f]{16})-([\da-f]{2})(-.*)?$/;
const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);
/** W3C: printable ASCII, at most 512 characters; a longer or malformed one is dropped, not cut. */
const TRACESTATE = /^[\x20-\x7e]{1,512}$/;

/**
 * The caller's span from its `traceparent` (and `tracestate`), as the W3C Trace Context spec reads
 * them: version ff, all-zero ids and malformed headers count as no parent (the request starts a
 * trace of its own). Versions above 00 are read by their first four fields, as the spec asks.
 */
export function parseTraceparent(traceparent: string | undefined, tracestate: string | undefined): SpanContext | null {
  if (traceparent === undefined) return null;
  const match = TRACEPARENT.exec(traceparent.trim());
  if (!match) return null;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === "ff" || (version === "00" && rest !== undefined) || traceId === ZERO_TRACE || spanId === ZERO_SPAN) return null;
  const state = tracestate?.trim();
  return {
    traceId,
    spanId,
    sampled: (Number.parseInt(flags, 16) & 1) === 1,
    ...(state && TRACESTATE.test(state) ? { traceState: state } : {}),
  };
}

const ID_POOL_BYTES = 24 * 512;
/** Random bytes as hex, made 512 spans' worth at a time (one system call and one conversion, not one per id). */
let pool = "";
let offset = 0;

/** `bytes` random bytes as hex, cut from the pool (a slice: nothing copied). */
function randomHex(bytes: number): string {
  const digits = bytes * 2;
  if (offset + digits > pool.length) {
    pool = randomFillSync(Buffer.alloc(ID_POOL_BYTES)).toString("hex");
    offset = 0;
  }
  offset += digits;
  return pool.slice(offset - digits, offset);
}

/** A new trace id (16 random bytes); never all zero. */
export function newTraceId(): string {
  const id = randomHex(16);
  return id === ZERO_TRACE ? newTraceId() : id;
}

/** A new span id (8 random bytes); never all zero. */
export function newSpanId(): string {
  const id = randomHex(8);
  return id === ZERO_SPAN ? newSpanId() : id;
}

export type SamplerName = "always_on" | "always_off" | "traceidratio" | "parentbased_always_on" | "parentbased_always_off" | "parentbased_traceidratio";

/**
 * OTEL_TRACES_SAMPLER's choice for a new span: the parent-based samplers follow the caller's sampled
 * flag; the ratio samplers keep a trace when its id's last 8 bytes fall below ratio x 2^64, so every
 * service that sees the same trace id decides alike (the spec's TraceIdRatioBased).
 */
export function sampler(name: SamplerName, ratio: number): (parent: SpanContext | null, traceId: string) => boolean {
  const bound = BigInt(Math.floor(Math.max(0, Math.min(1, ratio)) * 2 ** 32)) << 32n;
  const byRatio = (traceId: string) => ratio >= 1 || BigInt(`0x${traceId.slice(16)}`) < bound;
  switch (name) {
    case "always_on":
      return () => true;
    case "always_off":
      return () => false;
    case "traceidratio":
      return (_parent, traceId) => byRatio(traceId);
    case "parentbased_always_on":
      return (parent) => parent?.sampled ?? true;
    case "parentbased_always_off":
      return (parent) => parent?.sampled ?? false;
    case "parentbased_traceidratio":
      return (parent, traceId) => parent?.sampled ?? byRatio(traceId);
  }
}
