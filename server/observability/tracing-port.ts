import type { Traced } from "./port.ts";

/** The span of one HTTP request, while it is being answered. */
export interface RequestSpan {
  /** The trace this request belongs to (the caller's when a traceparent came), for the request log. */
  readonly traceId: string;
  /** Names the span after the route pattern, records the status and ends it. */
  finish(method: string, route: string, status: number): void;
}

/** What `Tracing.request` reads of node:http's response: whether it is done, and when it will be. */
export interface RequestResponse {
  readonly closed: boolean;
  once(event: "close", listener: () => void): unknown;
}

export interface Tracing {
  readonly enabled: boolean;
  /** Outbound work (gateway calls, catalogue and image fetches): a child span of the current one, or a trace of its own outside a request. */
  readonly trace: Traced;
  /** Database queries: a child span of the current one; outside a request (background polls) none. */
  readonly traceQuery: Traced;
  /**
   * Runs `handle` inside a server span that continues the caller's `traceparent` (W3C trace
   * context), so every span started meanwhile (queries, gateway calls) is its child, until the
   * handler has settled and `response` (node:http's, when there is one) is done.
   */
  request<T>(header: (name: string) => string | undefined, handle: (span: RequestSpan) => Promise<T>, response?: RequestResponse): Promise<T>;
  /**
   * A request's server span that is not made current: for an answer given at once from memory,
   * which starts no other span (no promise, no async context to carry).
   */
  span(header: (name: string) => string | undefined): RequestSpan;
  /** Sends what is still buffered; at shutdown. */
  shutdown(): Promise<void>;
}
