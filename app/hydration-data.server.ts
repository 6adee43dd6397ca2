import type { EntryContext } from "react-router";

/**
 * Reads React Router's hydration data stream to its end, as its `StreamTransfer` would read it
 * during the render (one script per chunk read, decoded the same way), and leaves each read in
 * `renderMeta.streamCache` (part of its EntryContext type) as a settled entry, which
 * `StreamTransfer` renders without suspending. The stream always ends: React Router cuts off
 * whatever a loader deferred after `streamTimeout`. False when there is no such stream.
 */
export async function settleHydrationData(routerContext: Pick<EntryContext, "serverHandoffStream" | "renderMeta">): Promise<boolean> {
  const stream = routerContext.serverHandoffStream;
  const renderMeta = routerContext.renderMeta;
  if (!stream || !renderMeta) return false;
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const streamCache: NonNullable<typeof renderMeta.streamCache> = {};
  for (let identifier = 0, done = false; !done; identifier++) {
    const read = await reader.read();
    done = read.done;
    streamCache[identifier] = Object.assign(Promise.resolve(), { result: { done, value: decoder.decode(read.value, { stream: true }) } });
  }
  reader.releaseLock();
  renderMeta.streamCache = streamCache;
  return true;
}
