import { constants, DeflateRaw, deflateRawSync } from "node:zlib";

/** What node:zlib's streams hold inside (Node 20-24): the native handle and the two counts its writes leave. */
interface ZlibHandle {
  writeSync(flush: number, input: Uint8Array, inOffset: number, inLength: number, output: Uint8Array, outOffset: number, outLength: number): void;
  reset(): void;
}
interface ZlibInternals {
  _handle?: ZlibHandle | null;
  /** [output space left, input left] after each write. */
  _writeState?: Uint32Array;
}

/** The output space of each write; a larger output is taken in several writes. */
const SCRATCH_BYTES = 64 * 1024;
/** Text the handle must deflate exactly as deflateRawSync does before it is trusted. */
const PROBE = Buffer.from(`<p class="probe">${"Storefront deflate probe, ".repeat(40)}</p>`);

/**
 * Raw deflate (`deflateRawSync(input, { level, finishFlush })`, byte for byte) on one zlib stream
 * kept for the process and reset after each input. Each `deflateRawSync` builds a zlib stream (a
 * Node Transform with its state, a native handle whose set-up allocates and clears about 256 KB)
 * and closes it again: about 15-20 µs per call whatever the input, twice per rendered page
 * (page-gzip.ts), a third of a page's compression. node:zlib has no public way to reuse a
 * stream synchronously (its sync path closes the stream after one input), so this drives the
 * stream's native handle as that path does (`writeSync`, then `reset`, which puts the stream back
 * where a new one starts: the output is the same bytes). Before it is used, the handle must deflate
 * a probe to exactly deflateRawSync's bytes; a Node whose zlib internals differ, or any error,
 * falls back to deflateRawSync for good.
 */
export class ReusedRawDeflate {
  readonly #level: number;
  #handle: ZlibHandle | null = null;
  #state: Uint32Array | null = null;
  #error: unknown = null;
  readonly #scratch = Buffer.allocUnsafe(SCRATCH_BYTES);

  /** `stream` makes the zlib stream kept (tests give one whose handle misbehaves). */
  constructor(level: number, stream: () => DeflateRaw = () => new DeflateRaw({ level })) {
    this.#level = level;
    try {
      const kept = stream() as DeflateRaw & ZlibInternals;
      // The handle reports errors through the stream: kept here instead of thrown at no one.
      kept.on("error", (error) => (this.#error = error));
      const handle = kept._handle;
      const state = kept._writeState;
      if (!handle || typeof handle.writeSync !== "function" || typeof handle.reset !== "function") return;
      if (!(state instanceof Uint32Array) || state.length < 2) return;
      this.#handle = handle;
      this.#state = state;
      const trusted = [constants.Z_SYNC_FLUSH, constants.Z_FINISH].every((flush) =>
        this.deflate(PROBE, flush).equals(deflateRawSync(PROBE, { level, finishFlush: flush })),
      );
      if (!trusted) this.#handle = null;
    } catch {
      this.#handle = null;
    }
  }

  /** Whether the kept stream is in use (false: every call is deflateRawSync's). */
  get reused(): boolean {
    return this.#handle !== null;
  }

  /** `input` deflated, ended with `finishFlush` (Z_FINISH: a final block; Z_SYNC_FLUSH: byte-aligned, not final). */
  deflate(input: Uint8Array, finishFlush: number = constants.Z_FINISH): Buffer {
    const handle = this.#handle;
    if (handle) {
      try {
        return this.#write(handle, this.#state!, input, finishFlush);
      } catch {
        this.#handle = null;
      }
    }
    return deflateRawSync(input, { level: this.#level, finishFlush });
  }

  #write(handle: ZlibHandle, state: Uint32Array, input: Uint8Array, flush: number): Buffer {
    const scratch = this.#scratch;
    const pieces: Buffer[] = [];
    let inOffset = 0;
    let inLeft = input.byteLength;
    for (;;) {
      handle.writeSync(flush, input, inOffset, inLeft, scratch, 0, SCRATCH_BYTES);
      if (this.#error) throw this.#error;
      const outLeft = state[0]!;
      const inLeftAfter = state[1]!;
      // Copied out: the scratch space is written again by the next write.
      pieces.push(Buffer.from(scratch.subarray(0, SCRATCH_BYTES - outLeft)));
      // Output space used up: zlib has more to give (node:zlib's sync path loops the same way).
      if (outLeft !== 0) break;
      inOffset += inLeft - inLeftAfter;
      inLeft = inLeftAfter;
    }
    handle.reset();
    if (this.#error) throw this.#error;
    return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
  }
}
