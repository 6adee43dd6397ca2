import { constants, crc32, deflateRawSync } from "node:zlib";
import { GZIP_HEADER, crcCombine, crcShift, gzipTrailer } from "../gzip/gzip-member.ts";
import { byteLength, type Pieces } from "../pipeline/ready-answer.ts";

/** An empty final deflate block: ends the stream after the last piece. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
/** Deflate's stored blocks hold at most this many bytes each. */
const STORED_MAX = 0xffff;

/**
 * A text with holes (e.g. a cached page with a fresh CSP nonce per response) sent gzipped without
 * compressing it again per response: the parts between the holes are compressed once, each ending
 * byte-aligned (a sync flush) so they can be laid side by side, and each response's hole values go
 * between them as stored (uncompressed) deflate blocks. The gzip trailer's CRC-32 is over the whole
 * text: it is combined per response from the parts' CRCs, computed once, and the hole's.
 */
export class SplicedGzip {
  /** The compressed parts, the first behind the gzip header and the last before the final block: the member's own bytes, as sent. */
  private readonly framed: Buffer[];
  private readonly plain: Buffer[];
  private readonly plainBytes: number;
  /** Each part's CRC-32, and the operator that shifts a CRC past that part's length. */
  private readonly crcs: number[];
  private readonly shifts: number[];

  constructor(parts: string[]) {
    this.plain = parts.map((part) => Buffer.from(part));
    this.plainBytes = this.plain.reduce((sum, part) => sum + part.length, 0);
    this.crcs = this.plain.map((part) => crc32(part));
    this.shifts = this.plain.map((part) => crcShift(part.length));
    // Each part on its own: no back-references into a neighbour, which a hole will separate.
    this.framed = this.plain.map((part) => deflateRawSync(part, { level: 9, finishFlush: constants.Z_SYNC_FLUSH }));
    this.framed[0] = Buffer.concat([GZIP_HEADER, this.framed[0]!]);
    this.framed[this.framed.length - 1] = Buffer.concat([this.framed.at(-1)!, FINAL_BLOCK]);
  }

  /** The memory it holds: the parts, plain and compressed. */
  get bytes(): number {
    return this.plainBytes + byteLength(this.framed);
  }

  /** The parts with `fill` in every hole (or `fill[i]` in hole i), as one gzip member. */
  gzip(fill: string | readonly string[]): Pieces {
    const holes = holesOf(fill, this.plain.length - 1);
    const pieces: Uint8Array[] = [this.framed[0]!];
    let crc = this.crcs[0]!;
    let holeBytes = 0;
    for (let i = 1; i < this.framed.length; i++) {
      const hole = holes[i - 1]!;
      pieces.push(hole.stored, this.framed[i]!);
      crc = crcCombine(crcCombine(crc, hole.crc, hole.shift), this.crcs[i]!, this.shifts[i]!);
      holeBytes += hole.bytes.length;
    }
    pieces.push(gzipTrailer(crc, this.plainBytes + holeBytes));
    return pieces;
  }

  /** The parts with `fill` in every hole (or `fill[i]` in hole i), uncompressed. */
  text(fill: string | readonly string[]): Pieces {
    const holes = holesOf(fill, this.plain.length - 1);
    return this.plain.flatMap((part, i) => (i > 0 ? [holes[i - 1]!.bytes, part] : [part]));
  }
}

interface Hole {
  bytes: Buffer;
  /** The bytes as stored deflate blocks, headers included: one piece of the gzip. */
  stored: Buffer;
  crc: number;
  shift: number;
}

/** Each hole's bytes, CRC and shift, computed once per distinct value (a nonce fills several holes). */
function holesOf(fill: string | readonly string[], count: number): Hole[] {
  if (typeof fill === "string") return new Array<Hole>(count).fill(holeOf(fill));
  if (fill.length !== count) throw new Error(`${count} holes, ${fill.length} values`);
  const known = new Map<string, Hole>();
  return fill.map((value) => {
    let hole = known.get(value);
    if (!hole) known.set(value, (hole = holeOf(value)));
    return hole;
  });
}

function holeOf(value: string): Hole {
  const bytes = Buffer.from(value);
  return { bytes, stored: storedBlocks(bytes), crc: crc32(bytes), shift: crcShift(bytes.length) };
}

/** `data` as non-final stored deflate blocks, in one buffer (the stream is byte-aligned before each). */
function storedBlocks(data: Buffer): Buffer {
  const out = Buffer.allocUnsafe(data.length + 5 * Math.ceil(data.length / STORED_MAX));
  let at = 0;
  for (let start = 0; start < data.length; start += STORED_MAX) {
    const chunk = data.subarray(start, start + STORED_MAX);
    out[at] = 0x00; // not final, stored
    out.writeUInt16LE(chunk.length, at + 1);
    out.writeUInt16LE(~chunk.length & 0xffff, at + 3);
    at += 5 + chunk.copy(out, at + 5);
  }
  return out;
}
