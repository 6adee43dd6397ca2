import { describe, expect, it } from "vitest";
import type { AdminContext } from "../../../server/admin/context.ts";
import type { AdminProduct, ProductsAdmin, ProductWrite } from "../../../server/admin/products.ts";
import { action } from "./products-edit.tsx";

const RING: AdminProduct = { id: 8, title: "Ring", priceCents: 64900, description: "", category: "jewelery", image: "/ring.png", stock: 3, reserved: 0, version: 4, archived: false };
const BAD_VERSION = "This form does not say which version of the product it shows. Please reload the page and try again.";

/** The edit page's action with a products service that records what it was asked. */
async function post(fields: Record<string, string>) {
  const asked: Array<{ call: string; version: number | undefined }> = [];
  const done: ProductWrite = { ok: true, product: RING };
  const products = {
    source: { editable: true },
    setArchived: async (_actor: unknown, _id: number, archived: boolean, version?: number) => (asked.push({ call: archived ? "archive" : "unarchive", version }), done),
    update: async (_actor: unknown, _id: number, input: { version?: number }) => (asked.push({ call: "update", version: input.version }), done),
  } as unknown as ProductsAdmin;
  const context = { admin: { actor: { id: "u1", name: "boss@example.com" }, products } as unknown as AdminContext };
  const request = new Request("http://localhost/admin/products/8", { method: "POST", body: new URLSearchParams(fields) });
  const answer: unknown = await action({ context, params: { productId: "8" }, request } as unknown as Parameters<typeof action>[0]);
  // A refusal is React Router's data(body, { status }); a success is the body itself.
  const refused = typeof answer === "object" && answer !== null && "init" in answer ? (answer as { data: unknown; init: { status: number } }) : null;
  return { status: refused ? refused.init.status : 200, body: (refused ? refused.data : answer) as { ok: boolean; message: string }, asked };
}

describe("the product edit page's action", () => {
  it.each(["abc", "", "1.5", "-1", "0", "1e1", " 4"])("refuses the version %j with 400 and a message, changing nothing", async (version) => {
    for (const intent of ["archive", "unarchive", "save"]) {
      const { status, body, asked } = await post({ intent, version, title: "Ring", price: "649", category: "jewelery", stock: "3", description: "" });
      expect(status).toBe(400);
      expect(body).toMatchObject({ ok: false, message: BAD_VERSION });
      expect(asked).toEqual([]);
    }
  });

  it("refuses a form with no version at all", async () => {
    const { status, asked } = await post({ intent: "archive" });
    expect(status).toBe(400);
    expect(asked).toEqual([]);
  });

  it("hands the version the form showed to the service", async () => {
    const { status, body, asked } = await post({ intent: "archive", version: "4" });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, message: expect.stringMatching(/^Archived/) });
    expect(asked).toEqual([{ call: "archive", version: 4 }]);
  });
});
