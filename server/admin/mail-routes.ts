import { Hono } from "hono";
import type { Kysely } from "kysely";
import { z } from "zod";
import type { Schema } from "../db/schema.ts";
import type { StaffEnv } from "./gate.ts";
import { jsonResponse } from "../api-edge/json-response.ts";
import { limitParam, queryParams } from "../api-edge/query.ts";
import { HttpError } from "../http-error.ts";
import { OUTBOX_STATUSES, outboxPage } from "../mail/outbox.ts";

const listQuery = z.object({
  status: z.enum(OUTBOX_STATUSES, { error: `status must be one of ${OUTBOX_STATUSES.join(", ")}` }).optional(),
  limit: limitParam(100).default(50),
  before: z.string().max(300).optional(),
});

/** /api/admin/mail: the outbox, newest first (what was sent, what waits, what failed), never a payload. */
export function adminMailRoutes(db: Kysely<Schema>): Hono<StaffEnv> {
  const api = new Hono<StaffEnv>();
  api.get("/", async (c) => {
    const page = await outboxPage(db, queryParams(c, listQuery));
    if (!page.ok) throw new HttpError(400, page.message);
    return jsonResponse(c, { messages: page.messages, next: page.next });
  });
  return api;
}
