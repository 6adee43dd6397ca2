import type { Context, ErrorHandler } from "hono";
import type { AppDatabase } from "../db/database.ts";
import { HttpError } from "../http-error.ts";
import type { Logger } from "../log.ts";
import type { AppEnv } from "./env.ts";
import { jsonResponse } from "../api-edge/json-response.ts";
import { MalformedBody } from "../api-edge/malformed-body.ts";

const DATABASE_CHECK_MS = 500;
const DATABASE_AWAY = "The shop's database is unavailable; try again shortly.";

/** A 503 that tells the client when to come back. */
export function databaseAway(response: Response): Response {
  response.headers.set("Retry-After", "5");
  return response;
}

/** True when the database does not answer quickly: whatever failed, "try again shortly" is then the honest answer. */
export async function databaseIsAway(database: AppDatabase): Promise<boolean> {
  return !(await database.ping(DATABASE_CHECK_MS));
}

/**
 * Thrown HttpErrors become their JSON answer (a malformed body's also a warning in the log);
 * anything else is a 503 while the database is away, else a 500 logged as an error.
 */
export function errorHandler(database: AppDatabase, log: Logger): ErrorHandler<AppEnv> {
  return async (error, c: Context<AppEnv>) => {
    if (error instanceof MalformedBody) log.warn({ method: c.req.method, path: c.req.path, status: error.status, reason: error.message }, "malformed request body");
    if (error instanceof HttpError) return jsonResponse(c, { error: error.message }, error.status, error.headers);
    if (await databaseIsAway(database)) return databaseAway(jsonResponse(c, { error: DATABASE_AWAY }, 503));
    log.error({ err: error, method: c.req.method, path: c.req.path }, "unhandled error");
    return jsonResponse(c, { error: "Something went wrong on our side." }, 500);
  };
}
