import pino from "pino";
import type { Logger } from "../../server/log.ts";

/** A logger that keeps its records in memory, so tests can assert what was logged. */
export function memoryLogger(): { log: Logger; records: Array<Record<string, unknown>> } {
  const records: Array<Record<string, unknown>> = [];
  const log = pino({ level: "debug" }, { write: (line: string) => records.push(JSON.parse(line) as Record<string, unknown>) });
  return { log, records };
}
