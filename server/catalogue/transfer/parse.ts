// A catalogue file read row by row as it streams in, never whole: JSON (an array in
// catalogue/products.json's shape) or CSV (a header row of the same fields' names).

import { pipeline, type Readable } from "node:stream";
import { parse } from "csv-parse";
import streamArray from "stream-json/streamers/stream-array.js";
import { COLUMNS, type Column, type Problem, type RawRow, REQUIRED_COLUMNS } from "./fields.ts";

export type Format = "json" | "csv";

/** A file's format by its name's extension; null for any other. */
export function formatOf(fileName: string): Format | null {
  const extension = /\.([^./\\]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return extension === "json" || extension === "csv" ? extension : null;
}

/** One data row (1-based, the header not counted): its values, or why it cannot be read as a row at all. */
export type ReadRow = { row: number; raw: RawRow } | { row: number; problem: Problem };

/** The file as a whole cannot be read as a catalogue: not JSON, not an array, a CSV header wanting a column. */
export class UnreadableFile extends Error {
  override readonly name = "UnreadableFile";
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A JSON product's fields by column; a rating that is not an object fails both of its checks. */
export function jsonRow(value: Record<string, unknown>): RawRow {
  const rating = value.rating ?? {};
  const { rate, count } = isObject(rating) ? rating : { rate: rating, count: rating };
  return { id: value.id, title: value.title, price: value.price, description: value.description, category: value.category, image: value.image, rating_rate: rate, rating_count: count, stock: value.stock };
}

async function* jsonRows(source: Readable): AsyncGenerator<ReadRow> {
  const items = pipeline(source, streamArray.withParserAsStream(), () => {}) as AsyncIterable<{ key: number; value: unknown }>;
  try {
    for await (const { key, value } of items) {
      const row = key + 1;
      yield isObject(value) ? { row, raw: jsonRow(value) } : { row, problem: { row, field: "", message: "Each entry must be a product (a JSON object)." } };
    }
  } catch (error) {
    throw new UnreadableFile(`The file is not a JSON array of products: ${(error as Error).message}`);
  }
}

/** The header's columns, by position; refused when it names a column the shop does not know or lacks one it needs. */
export function csvHeader(cells: string[]): Column[] {
  const names = cells.map((cell) => cell.trim());
  const unknown = names.filter((name) => !(COLUMNS as readonly string[]).includes(name));
  const missing = REQUIRED_COLUMNS.filter((column) => !names.includes(column));
  const twice = names.filter((name, i) => names.indexOf(name) !== i);
  const faults = [
    unknown.length > 0 ? `unknown column${unknown.length > 1 ? "s" : ""} ${unknown.map((n) => JSON.stringify(n)).join(", ")}` : "",
    missing.length > 0 ? `no ${missing.map((n) => JSON.stringify(n)).join(", ")} column` : "",
    twice.length > 0 ? `${twice.map((n) => JSON.stringify(n)).join(", ")} more than once` : "",
  ].filter(Boolean);
  if (faults.length > 0) throw new UnreadableFile(`The header row has ${faults.join("; ")}. The columns are ${COLUMNS.join(", ")}.`);
  return names as Column[];
}

async function* csvRows(source: Readable): AsyncGenerator<ReadRow> {
  // A record of a megabyte is no product row: a missing closing quote would otherwise read the rest of the file into one field.
  const records = pipeline(source, parse({ bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: 1_000_000 }), () => {}) as AsyncIterable<string[]>;
  let header: Column[] | null = null;
  let row = 0;
  try {
    for await (const cells of records) {
      if (!header) {
        header = csvHeader(cells);
        continue;
      }
      row++;
      if (cells.length !== header.length) {
        yield { row, problem: { row, field: "", message: `The row has ${cells.length} fields; the header has ${header.length}.` } };
        continue;
      }
      yield { row, raw: Object.fromEntries(header.map((column, i) => [column, cells[i]])) };
    }
  } catch (error) {
    if (error instanceof UnreadableFile) throw error;
    throw new UnreadableFile(`The file cannot be read as CSV after row ${row}: ${(error as Error).message}`);
  }
  if (!header) throw new UnreadableFile("The file is empty: a CSV catalogue starts with a header row.");
}

/** The rows of `source`, one at a time; throws UnreadableFile when the file as a whole is not a catalogue. */
export function readRows(source: Readable, format: Format): AsyncGenerator<ReadRow> {
  return format === "json" ? jsonRows(source) : csvRows(source);
}
