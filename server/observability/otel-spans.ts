// The spans the shop starts itself on OpenTelemetry's SDK (otel-tracing.ts): a request's server
// span, and the client spans of outbound work and queries. The OpenTelemetry modules are handed in,
// never imported here: otel-tracing.ts loads them only when tracing is configured.
import type * as Api from "@opentelemetry/api";
import type { Context, Span, TextMapGetter, TextMapPropagator, Tracer } from "@opentelemetry/api";
import type * as Semconv from "@opentelemetry/semantic-conventions";
import type { Traced } from "./port.ts";
import type { QuietContextManager } from "./quiet-context-manager.ts";
import type { RequestResponse, RequestSpan, Tracing } from "./tracing-port.ts";

type Header = (name: string) => string | undefined;
/** The W3C propagator reads the request's headers through this: only traceparent and tracestate are asked for. */
const headerGetter: TextMapGetter<Header> = { keys: () => [], get: (header, key) => header(key) };

/** What the shop's spans are made with: the API and conventions loaded, the provider's tracer, the propagator and context manager it registered. */
export interface SpanMaking {
  api: typeof Api;
  semconv: typeof Semconv;
  tracer: Tracer;
  propagator: TextMapPropagator;
  contextManager: QuietContextManager;
}

/** The spans of `Tracing`: client spans for outbound work and queries, and a request's server span. */
export function shopSpans(making: SpanMaking): Pick<Tracing, "trace" | "traceQuery" | "request" | "span"> {
  const { api, contextManager } = making;
  const { context, trace } = api;
  const childSpan = childSpans(making);
  const serverSpan = serverSpans(making);
  return {
    trace: childSpan(true),
    traceQuery: childSpan(false),
    // Every span started while `handle` runs, and after it returned until the response is done (a
    // streamed body's deferred data), has the request's as its parent: the context manager carries
    // it across awaits. A request that is not sampled is current too, so that its children are not
    // recorded either.
    request: <T>(header: Header, handle: (span: RequestSpan) => Promise<T>, response?: RequestResponse) => {
      const { parent, span, request } = serverSpan(header);
      const handled = contextManager.hold();
      if (response && !response.closed) response.once("close", contextManager.hold());
      let answered: Promise<T>;
      try {
        answered = context.with(trace.setSpan(parent, span), handle, undefined, request);
      } catch (error) {
        handled();
        throw error;
      }
      answered.then(handled, handled);
      return answered;
    },
    span: (header) => serverSpan(header).request,
  };
}

/** A client span for `run`: a child of the current span; outside a request a trace of its own, where `outsideRequests` allows. */
function childSpans({ api, semconv, tracer, contextManager }: SpanMaking): (outsideRequests: boolean) => Traced {
  const { context, trace, SpanKind, SpanStatusCode, TraceFlags } = api;
  return (outsideRequests) => (name, attributes, run) => {
    const parent = trace.getSpan(context.active());
    // Inside a request that is not sampled its children are not either (its sampled flag, not
    // isRecording: a streamed body's work comes after the request's span has ended); outside
    // one, only where allowed.
    if (parent ? (parent.spanContext().traceFlags & TraceFlags.SAMPLED) === 0 : !outsideRequests) return run();
    const release = contextManager.hold();
    return tracer.startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
      try {
        return await run();
      } catch (caught) {
        // The error's type, never its message (which can carry data).
        span.setAttribute(semconv.ATTR_ERROR_TYPE, caught instanceof Error ? caught.name : typeof caught);
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw caught;
      } finally {
        span.end();
        release();
      }
    });
  };
}

/** A request's server span, continuing the caller's traceparent (and tracestate). */
function serverSpans({ api, semconv, tracer, propagator }: SpanMaking): (header: Header) => { parent: Context; span: Span; request: RequestSpan } {
  const { SpanKind, SpanStatusCode, ROOT_CONTEXT } = api;
  return (header) => {
    const parent = propagator.extract(ROOT_CONTEXT, header, headerGetter);
    // Named by its method and route once the route is known (finish).
    const span = tracer.startSpan("HTTP", { kind: SpanKind.SERVER }, parent);
    const request: RequestSpan = {
      traceId: span.spanContext().traceId,
      finish(method, route, status) {
        if (span.isRecording()) {
          span.updateName(`${method} ${route}`);
          span.setAttributes({ [semconv.ATTR_HTTP_REQUEST_METHOD]: method, [semconv.ATTR_HTTP_ROUTE]: route, [semconv.ATTR_HTTP_RESPONSE_STATUS_CODE]: status });
          if (status >= 500) {
            span.setAttribute(semconv.ATTR_ERROR_TYPE, String(status));
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
        }
        span.end();
      },
    };
    return { parent, span, request };
  };
}
