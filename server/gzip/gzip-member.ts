/**
 * A gzip member's frame (header and trailer) and the CRC-32 arithmetic that lets a member be laid
 * together from pieces compressed apart: the kept pages (page-cache/spliced-gzip.ts) and each
 * rendered page's stylesheet (page-gzip.ts) are sent that way.
 */

/** A gzip member's header: deflate, no name or time, unknown system. */
export const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** A gzip member's trailer: the CRC-32 of the text and its length (modulo 2^32). */
export function gzipTrailer(crc: number, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(8);
  bytes.writeUInt32LE(crc >>> 0, 0);
  bytes.writeUInt32LE(length >>> 0, 4);
  return bytes;
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
