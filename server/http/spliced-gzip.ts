import { constants, crc32, deflateRawSync } from "node:zlib";
import { byteLength, type Pieces } from "./pieces.ts";

/** A gzip member's header: deflate, no name or time, unknown system. */
export const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
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

/** A gzip member's trailer: the CRC-32 of the text and its length (modulo 2^32). */
export function gzipTrailer(crc: number, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(8);
  bytes.writeUInt32LE(crc >>> 0, 0);
  bytes.writeUInt32LE(length >>> 0, 4);
  return bytes;
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

// CRC-32 combination (as zlib's crc32_combine): the CRC of A followed by B is CRC(A) multiplied by
// x^(8·|B|) modulo the CRC polynomial, plus CRC(B). Polynomials are bit-reflected 32-bit numbers.
const POLYNOMIAL = 0xedb88320;

/** a·b modulo the CRC polynomial. */
function multiplyModP(a: number, b: number): number {
  let product = 0;
  for (let bit = 0x80000000; bit !== 0; bit >>>= 1) {
    if (a & bit) product ^= b;
    b = b & 1 ? (b >>> 1) ^ POLYNOMIAL : b >>> 1;
  }
  return product >>> 0;
}

/** x^(2^k) modulo the polynomial, for k = 0..31. */
const POWERS_OF_X: number[] = [];
for (let k = 0, power = 0x40000000; k < 32; k++, power = multiplyModP(power, power)) POWERS_OF_X.push(power);

/** Shift operators by length: a page's holes (its nonces) have one length, asked on every response. */
const shiftsByLength = new Map<number, number>();

/** The operator x^(8·bytes) that moves a CRC past `bytes` bytes. */
export function crcShift(bytes: number): number {
  let operator = shiftsByLength.get(bytes);
  if (operator === undefined) {
    operator = computeCrcShift(bytes);
    if (shiftsByLength.size >= 1000) shiftsByLength.clear();
    shiftsByLength.set(bytes, operator);
  }
  return operator;
}

function computeCrcShift(bytes: number): number {
  let operator = 0x80000000; // 1
  for (let k = 3, n = bytes; n > 0; n = Math.floor(n / 2), k++) if (n & 1) operator = multiplyModP(POWERS_OF_X[k % 32]!, operator);
  return operator;
}

/** The CRC of A followed by B, from CRC(A), CRC(B) and B's shift operator. */
export function crcCombine(crcA: number, crcB: number, shiftB: number): number {
  return (multiplyModP(shiftB, crcA) ^ crcB) >>> 0;
}
