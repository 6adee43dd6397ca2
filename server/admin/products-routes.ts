import { PassThrough, Readable } from "node:stream";
import { type Context, Hono } from "hono";
import { z } from "zod";
import { parseProductId } from "../catalogue/product.ts";
import { jsonBody } from "../api-edge/json-body.ts";
import { jsonResponse } from "../api-edge/json-response.ts";
import { MalformedBody } from "../api-edge/malformed-body.ts";
import { limitParam, queryParams } from "../api-edge/query.ts";
import { HttpError } from "../http-error.ts";
import type { Actor } from "../audit/log.ts";
import type { StaffEnv } from "./gate.ts";
import { adminProductJson, DEFAULT_LIMIT, MAX_LIMIT, PRODUCT_SORTS, type ProductsAdmin, type ProductWrite, versionField } from "./products.ts";

const listQuery = z.object({
  q: z.string().max(200, "q can be at most 200 characters").optional(),
  category: z.string().max(100, "category can be at most 100 characters").optional(),
  sort: z.enum(PRODUCT_SORTS, { error: `sort must be one of ${PRODUCT_SORTS.join(", ")}` }).optional(),
  page: z.coerce.number({ error: "page must be a whole number from 1" }).int("page must be a whole number from 1").min(1, "page must be a whole number from 1").max(1_000_000).optional(),
  limit: limitParam(MAX_LIMIT).default(DEFAULT_LIMIT),
});

/** An archive or image request may name the version it started from. */
const versionOnly = z.object({ version: versionField.optional() });

const actorOf = (c: Context<StaffEnv>): Actor => {
  const staff = c.get("staff");
  return { id: staff.uid, name: staff.email };
};

function idOf(c: Context<StaffEnv>): number {
  const id = parseProductId(c.req.param("id") ?? "");
  if (id === null) throw new HttpError(404, `No product with id ${JSON.stringify(c.req.param("id"))}.`);
  return id;
}

function answer(c: Context<StaffEnv>, outcome: ProductWrite, status: 200 | 201 = 200): Response {
  if (!outcome.ok) throw new HttpError(outcome.status, outcome.message);
  return jsonResponse(c, adminProductJson(outcome.product), status);
}

/** The picture's bytes: a multipart form's `image` file, or the raw body (Content-Type image/…). */
async function uploaded(c: Context<StaffEnv>): Promise<{ bytes: Uint8Array; version?: number }> {
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  const version = c.req.query("version");
  if (type.startsWith("multipart/form-data")) {
    const form = await c.req.parseBody().catch(() => {
      throw new MalformedBody(400, "The request body is not a readable multipart form.");
    });
    const file = form.image;
    if (!(file instanceof File)) throw new HttpError(400, "Send the picture as the form's image file.");
    const fields = versionOnly.safeParse({ version: form.version ?? version });
    if (!fields.success) throw new HttpError(400, fields.error.issues[0]!.message);
    return { bytes: new Uint8Array(await file.arrayBuffer()), version: fields.data.version };
  }
  if (!type.startsWith("image/") && type !== "application/octet-stream") throw new HttpError(415, "Send the picture as image/png, image/jpeg or image/webp, or in a multipart form.");
  const fields = versionOnly.safeParse({ version });
  if (!fields.success) throw new HttpError(400, fields.error.issues[0]!.message);
  return { bytes: new Uint8Array(await c.req.arrayBuffer()), version: fields.data.version };
}

/**
 * /api/admin/products, behind the admin gate: the list (search, category, sort by stock, pages),
 * create, edit with the version it started from (409 when someone else was first), archive and
 * unarchive, and the picture upload (5 MB: the one path with a larger body limit,
 * http/body-limit.ts).
 */
export function productRoutes(products: ProductsAdmin): Hono<StaffEnv> {
  const api = new Hono<StaffEnv>();

  api.get("/", async (c) => {
    const query = queryParams(c, listQuery);
    const list = await products.list(query);
    return jsonResponse(c, {
      ...list,
      products: list.products.map(adminProductJson),
      next: list.page < list.pages ? list.page + 1 : null,
      editable: products.source.editable,
      ...(!products.source.editable && { reason: products.source.reason }),
    });
  });

  api.get("/:id{[0-9]+}", async (c) => {
    const product = await products.get(idOf(c));
    if (!product) throw new HttpError(404, `No product with id ${c.req.param("id")}.`);
    return jsonResponse(c, adminProductJson(product));
  });

  api.post("/", async (c) => answer(c, await products.create(actorOf(c), await jsonBody(c, z.unknown())), 201));

  api.put("/:id{[0-9]+}", async (c) => answer(c, await products.update(actorOf(c), idOf(c), await jsonBody(c, z.unknown()))));

  for (const [path, archived] of [["archive", true], ["unarchive", false]] as const) {
    api.post(`/:id{[0-9]+}/${path}`, async (c) => {
      const id = idOf(c);
      // The body is optional: `{ version }` to refuse the change when someone else changed the product first.
      const { version } = c.req.header("content-type") ? await jsonBody(c, versionOnly) : {};
      return answer(c, await products.setArchived(actorOf(c), id, archived, version));
    });
  }

  api.post("/:id{[0-9]+}/image", async (c) => {
    const id = idOf(c);
    const { bytes, version } = await uploaded(c);
    return answer(c, await products.uploadImage(actorOf(c), id, bytes, version));
  });

  mountCatalogueFiles(api, products);
  return api;
}

const exportQuery = z.object({ format: z.enum(["json", "csv"], { error: "format must be json or csv" }).default("json") });
const FILE_TYPES = { json: "application/json; charset=utf-8", csv: "text/csv; charset=utf-8" } as const;

/**
 * The catalogue as a file: POST /import takes one (the body itself as text/csv or application/json,
 * or a form's `file`) and answers the counts, or 422 with every bad row; GET /export?format= gives
 * every product on sale, streamed as a download.
 */
function mountCatalogueFiles(api: Hono<StaffEnv>, products: ProductsAdmin): void {
  api.post("/import", async (c) => {
    const outcome = await products.importFile(actorOf(c), c.req.raw);
    if (outcome.ok) return jsonResponse(c, { added: outcome.added, updated: outcome.updated, unchanged: outcome.unchanged });
    if (!("problems" in outcome)) throw new HttpError(outcome.status, outcome.message);
    const { problems, unlisted } = outcome;
    return jsonResponse(c, { error: "Some rows are not right; nothing was imported.", problems, unlisted }, 422);
  });

  api.get("/export", (c) => {
    const { format } = queryParams(c, exportQuery);
    const file = products.exportFile(format);
    if (!file) throw new HttpError(409, products.source.editable ? "The catalogue cannot be exported." : products.source.reason);
    const headers = { "Content-Type": FILE_TYPES[format], "Content-Disposition": `attachment; filename="products.${format}"`, "Cache-Control": "private, no-store" };
    // The export's text, as bytes for the web stream the answer is.
    return new Response(Readable.toWeb(file.pipe(new PassThrough())) as ReadableStream<Uint8Array>, { headers });
  });
}
