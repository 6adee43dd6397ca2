import type { Kysely, Migration } from "kysely";

// When the reconciler last asked the gateway about each payment intent (epoch ms; 0: never), so
// every run goes through the intents in flight least recently checked first.
export default {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("payments").addColumn("checked", "bigint", (col) => col.notNull().defaultTo(0)).execute();
    await db.schema.createIndex("payments_gateway_checked").on("payments").columns(["gateway", "checked"]).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex("payments_gateway_checked").execute();
    await db.schema.alterTable("payments").dropColumn("checked").execute();
  },
} satisfies Migration;
