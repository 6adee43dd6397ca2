import path from "node:path";
import { z } from "zod";

const port = z.coerce.number().int().min(0).max(65_535);
const positiveInt = z.coerce.number().int().positive();
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" });

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: port.default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, "must be a postgres:// or postgresql:// URL")
    .optional(),
  PUBLIC_URL: httpUrl.optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  CATALOGUE_URL: httpUrl.optional(),
  CATALOGUE_TIMEOUT_MS: positiveInt.default(3_000),
  CATALOGUE_CACHE_SECONDS: z.coerce.number().int().min(0).default(300),
});

export type Config = Omit<z.infer<typeof schema>, "PUBLIC_URL"> & { PUBLIC_URL: string };

export class ConfigError extends Error {}

/** Reads the environment once. Empty strings count as unset, as in most .env tooling. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const input = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const result = schema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0]);
    const got = env[name];
    throw new ConfigError(
      `Invalid environment variable ${name}: ${issue.message}${got === undefined ? "" : ` (got ${JSON.stringify(got)})`}`,
    );
  }
  const config = result.data;
  return {
    ...config,
    DATA_DIR: path.resolve(config.DATA_DIR),
    PUBLIC_URL: (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, ""),
  };
}
