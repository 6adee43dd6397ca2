import pino, { type Logger } from "pino";
import type { Config } from "./config.ts";

export type { Logger };

/**
 * JSON lines in production, written asynchronously and in batches: a request never waits for its
 * log line, lines go out once 4 KB have gathered or 200 ms have passed (under load one write per
 * few dozen requests rather than a thread-pool write per few), and whatever is pending is flushed
 * at exit. Human-readable lines while developing.
 */
export function createLogger(config: Pick<Config, "NODE_ENV" | "LOG_LEVEL">): Logger {
  const options = { level: config.LOG_LEVEL, redact: ["req.headers.cookie", "req.headers.authorization", "*.password", "*.cardNumber"] };
  if (config.NODE_ENV === "development" && process.stdout.isTTY) {
    return pino({ ...options, transport: { target: "pino-pretty", options: { translateTime: "SYS:HH:MM:ss" } } });
  }
  return pino(options, pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 200 }));
}
