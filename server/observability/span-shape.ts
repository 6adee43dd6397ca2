import type { SpanAttributes } from "./port.ts";

/** A span's fields after its ids and times, which the wire formats write alike. */
export interface SpanShape {
  name: string;
  kind: "server" | "client";
  attributes: SpanAttributes;
  /** Set when the span ended in error: the error's type (never its message, which can carry data). */
  error?: string;
}

/** A request's span: named by its method and route pattern; a 5xx is an error of that status. */
export function requestSpan(method: string, route: string, status: number): SpanShape {
  return {
    name: `${method} ${route}`,
    kind: "server",
    attributes: { "http.request.method": method, "http.route": route, "http.response.status_code": status },
    error: status >= 500 ? String(status) : undefined,
  };
}

/**
 * `write`'s output for a request's span, made once per route, method and status (route patterns
 * and labels, never raw paths: a bounded set) and kept: every request has a span, so this is the
 * one part of tracing whose cost counts (docs/BENCHMARKS.md).
 */
export function perRequestShape<T>(write: (shape: SpanShape) => T): (method: string, route: string, status: number) => T {
  const byRoute = new Map<string, Map<string, T>>();
  return (method, route, status) => {
    let written = byRoute.get(route);
    if (!written) byRoute.set(route, (written = new Map()));
    const key = `${method} ${status}`;
    let value = written.get(key);
    if (value === undefined) written.set(key, (value = write(requestSpan(method, route, status))));
    return value;
  };
}
