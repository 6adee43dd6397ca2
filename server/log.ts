import pino, { type Logger } from "pino";
import type { Config } from "./config.ts";

export type { Logger };

/** JSON lines in production; human-readable lines while developing. */
export function createLogger(config: Pick<Config, "NODE_ENV" | "LOG_LEVEL">): Logger {
  const pretty = config.NODE_ENV === "development" && process.stdout.isTTY;
  return pino({
    level: config.LOG_LEVEL,
    redact: ["req.headers.cookie", "req.headers.authorization", "*.password", "*.cardNumber"],
    ...(pretty ? { transport: { target: "pino-pretty", options: { translateTime: "SYS:HH:MM:ss" } } } : {}),
  });
}
