export interface SseEvent {
  event?: string;
  id?: string;
  data: string;
}

/** Splits a buffer of SSE text into complete events (comments dropped); returns them and the rest. */
export function parseSse(buffer: string): { events: SseEvent[]; rest: string } {
  const events: SseEvent[] = [];
  let end: number;
  while ((end = buffer.indexOf("\n\n")) >= 0) {
    const block = buffer.slice(0, end);
    buffer = buffer.slice(end + 2);
    if (block.startsWith(":")) continue;
    const event: SseEvent = { data: "" };
    for (const line of block.split("\n")) {
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event.event = value;
      else if (field === "id") event.id = value;
      else if (field === "data") event.data += value;
    }
    events.push(event);
  }
  return { events, rest: buffer };
}

/** Resolves when `seen` holds an event that `match` accepts, checking as events arrive. */
export function waitForEvent(seen: SseEvent[], onArrival: (notify: () => void) => void, match: (e: SseEvent) => boolean, timeoutMs: number) {
  return new Promise<SseEvent>((resolve, reject) => {
    const check = () => {
      const found = seen.find(match);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    const timer = setTimeout(() => reject(new Error(`no matching event within ${timeoutMs} ms; saw ${JSON.stringify(seen)}`)), timeoutMs);
    onArrival(check);
    check();
  });
}

const RECONNECT_MS = 250;

/**
 * Follows an SSE URL as a browser's EventSource does: it reconnects when the stream ends or fails,
 * sending the last event id back as Last-Event-ID. `events` keeps everything received.
 */
export function followSse(url: string, headers: Record<string, string>) {
  const events: SseEvent[] = [];
  const listeners = new Set<() => void>();
  const controller = new AbortController();
  let lastId: string | undefined;
  let connections = 0;

  async function run() {
    while (!controller.signal.aborted) {
      try {
        const response = await fetch(url, {
          headers: { ...headers, ...(lastId ? { "last-event-id": lastId } : {}) },
          signal: controller.signal,
        });
        if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
        connections++;
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = "";
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          const parsed = parseSse(buffer + decoder.decode(value, { stream: true }));
          buffer = parsed.rest;
          for (const event of parsed.events) {
            if (event.id) lastId = event.id;
            events.push(event);
          }
          for (const listener of listeners) listener();
        }
      } catch {
        // dropped or refused: try again shortly, as EventSource does
      }
      // EventSource's own reconnection delay (the stream's retry), not a wait for something to happen.
      if (!controller.signal.aborted) await new Promise((again) => setTimeout(again, RECONNECT_MS));
    }
  }
  void run();

  return {
    events,
    get connections() {
      return connections;
    },
    next(match: (e: SseEvent) => boolean, timeoutMs = 10_000) {
      return waitForEvent(events, (notify) => listeners.add(notify), match, timeoutMs);
    },
    close() {
      controller.abort();
      listeners.clear();
    },
  };
}
