/** The most a catalogue host's answer may be: FakeStore's product list is about 10 KB. */
export const MAX_CATALOGUE_BYTES = 10 * 1024 * 1024;
const MAX_REDIRECTS = 3;

/** Why a catalogue request failed, in words for the log and the health answer. */
export class CatalogueFetchError extends Error {}

/**
 * GETs `url` and parses its JSON. Redirects are followed only on the same host (a host that
 * sends us elsewhere could send us into our own network); the body is read as it streams and
 * dropped past `maxBytes`, whatever Content-Length said.
 */
export async function fetchCatalogueJson(url: string, options: { timeoutMs: number; maxBytes?: number }): Promise<unknown> {
  const maxBytes = options.maxBytes ?? MAX_CATALOGUE_BYTES;
  const signal = AbortSignal.timeout(options.timeoutMs);
  const timedOut = (error: unknown) => error instanceof Error && error.name === "TimeoutError";
  let target = new URL(url);
  let response: Response;
  for (let hops = 0; ; hops++) {
    try {
      response = await fetch(target, { headers: { accept: "application/json" }, redirect: "manual", signal });
    } catch (error) {
      throw new CatalogueFetchError(timedOut(error) ? `no answer within ${options.timeoutMs} ms` : String(error));
    }
    const location = response.status >= 300 && response.status < 400 ? response.headers.get("location") : null;
    if (!location) break;
    await response.body?.cancel();
    const next = new URL(location, target);
    if (next.host !== target.host || next.protocol !== target.protocol) throw new CatalogueFetchError(`redirected to another host (${next.origin}); not followed`);
    if (hops >= MAX_REDIRECTS) throw new CatalogueFetchError(`more than ${MAX_REDIRECTS} redirects`);
    target = next;
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new CatalogueFetchError(`HTTP ${response.status}`);
  }
  let text: string;
  try {
    text = await readCapped(response, maxBytes);
  } catch (error) {
    if (error instanceof CatalogueFetchError) throw error;
    throw new CatalogueFetchError(`reading the body failed: ${timedOut(error) ? `no answer within ${options.timeoutMs} ms` : String(error)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CatalogueFetchError("response is not JSON");
  }
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const tooLarge = () => new CatalogueFetchError(`response larger than ${maxBytes} bytes; dropped`);
  if (Number(response.headers.get("content-length") ?? 0) > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
