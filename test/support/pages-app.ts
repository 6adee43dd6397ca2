import type { Engine } from "../../server/db/database.ts";
import { jsonPost, testApp } from "./app.ts";
import { freshDatabase } from "./database.ts";
import { builtPages } from "./pages.ts";

/** The shopper every page test signs in as. */
export const ADA = { email: "ada@example.com", password: "correct horse" };

/**
 * The app with the built pages on a fresh database of `engine`, where ADA has an account; the
 * database is dropped through `cleanup` after the test.
 */
export async function pagesAppWithAda(engine: Engine, cleanup: (drop: () => Promise<void>) => void) {
  const database = await freshDatabase(engine);
  cleanup(database.drop);
  const { app } = await testApp({ database, ssr: await builtPages() });
  await app.request("/api/auth/sign-up/email", jsonPost({ ...ADA, name: "ada" }));
  return app;
}
