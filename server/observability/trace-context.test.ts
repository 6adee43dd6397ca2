import { describe, expect, it } from "vitest";
import { newSpanId, newTraceId, parseTraceparent, sampler } from "./trace-context.ts";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN = "00f067aa0ba902b7";

describe("W3C trace context", () => {
  it("reads a traceparent, its sampled flag and its tracestate", () => {
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-01`, "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE")).toEqual({
      traceId: TRACE,
      spanId: SPAN,
      sampled: true,
      traceState: "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE",
    });
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-00`, undefined)).toEqual({ traceId: TRACE, spanId: SPAN, sampled: false });
    // A later version is read by its first four fields.
    expect(parseTraceparent(`cc-${TRACE}-${SPAN}-09-what-comes-later`, undefined)?.sampled).toBe(true);
  });

  it("treats a malformed traceparent as none, and drops a malformed tracestate", () => {
    for (const bad of [
      "",
      "garbage",
      `00-${TRACE}-${SPAN}`,
      `00-${TRACE.toUpperCase()}-${SPAN}-01`,
      `00-${"0".repeat(32)}-${SPAN}-01`,
      `00-${TRACE}-${"0".repeat(16)}-01`,
      `ff-${TRACE}-${SPAN}-01`,
      `00-${TRACE}-${SPAN}-01-extra`,
    ]) {
      expect(parseTraceparent(bad, undefined)).toBeNull();
    }
    expect(parseTraceparent(undefined, "a=b")).toBeNull();
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-01`, "a=\u00e9")).not.toHaveProperty("traceState");
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-01`, "x".repeat(513))).not.toHaveProperty("traceState");
  });

  it("makes new ids of the right size, different each time", () => {
    const traces = new Set(Array.from({ length: 2000 }, newTraceId));
    const spans = new Set(Array.from({ length: 2000 }, newSpanId));
    expect(traces.size).toBe(2000);
    expect(spans.size).toBe(2000);
    for (const id of traces) expect(id).toMatch(/^[\da-f]{32}$/);
    for (const id of spans) expect(id).toMatch(/^[\da-f]{16}$/);
  });
});

describe("samplers (OTEL_TRACES_SAMPLER)", () => {
  const sampledParent = { traceId: TRACE, spanId: SPAN, sampled: true };
  const unsampledParent = { ...sampledParent, sampled: false };

  it("follows the caller's decision when parent-based, and decides alone otherwise", () => {
    expect(sampler("parentbased_always_on", 1)(unsampledParent, TRACE)).toBe(false);
    expect(sampler("parentbased_always_on", 1)(null, TRACE)).toBe(true);
    expect(sampler("parentbased_always_off", 1)(sampledParent, TRACE)).toBe(true);
    expect(sampler("parentbased_always_off", 1)(null, TRACE)).toBe(false);
    expect(sampler("always_on", 1)(unsampledParent, TRACE)).toBe(true);
    expect(sampler("always_off", 1)(sampledParent, TRACE)).toBe(false);
  });

  it("keeps about the given share of traces by their id, the same way every time", () => {
    const tenth = sampler("traceidratio", 0.1);
    const ids = Array.from({ length: 20_000 }, newTraceId);
    const kept = ids.filter((id) => tenth(null, id)).length;
    expect(kept / ids.length).toBeGreaterThan(0.08);
    expect(kept / ids.length).toBeLessThan(0.12);
    for (const id of ids.slice(0, 100)) expect(tenth(null, id)).toBe(tenth(null, id));
    expect(ids.every((id) => sampler("traceidratio", 0)(null, id) === false)).toBe(true);
    expect(ids.every((id) => sampler("parentbased_traceidratio", 0)(sampledParent, id))).toBe(true);
  });
});
