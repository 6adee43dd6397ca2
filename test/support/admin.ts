import { COMMAND_LINE } from "../../server/audit/log.ts";
import { setRole } from "../../server/auth/staff.ts";
import type { Engine } from "../../server/db/database.ts";
import type { Services } from "../../server/services.ts";
import { jsonPost, testApp } from "./app.ts";
import { freshDatabase } from "./database.ts";
import { builtPages } from "./pages.ts";

type App = Awaited<ReturnType<typeof testApp>>["app"];

/** Every cookie a sign-up sets (session token and better-auth's session cache), as a browser sends them back. */
export async function signUpWithCookies(app: App, email: string, password = "correct horse"): Promise<string> {
  const response = await app.request("/api/auth/sign-up/email", jsonPost({ email, password, name: email }));
  if (response.status !== 200) throw new Error(`sign-up of ${email} failed with ${response.status}: ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
}

/** Signs up an account and makes it an admin as `npm run admin -- grant` does; its cookies. */
export async function signUpAdmin(app: App, services: Pick<Services, "database">, email = "boss@example.com"): Promise<string> {
  const cookies = await signUpWithCookies(app, email);
  const granted = await setRole(services.database.db, email, "admin", COMMAND_LINE);
  if (!granted.ok) throw new Error(granted.message);
  return cookies;
}

/**
 * The back office's shop on a fresh database of `engine`: its own catalogue, the built pages,
 * listening for catalogue changes, and an admin signed up (its cookies); `cleanup` drops it all.
 */
export async function backOfficeShop(engine: Engine, cleanup: (drop: () => Promise<void>) => void) {
  const database = await freshDatabase(engine);
  cleanup(database.drop);
  const { app, services } = await testApp({ database, catalogue: "database", ssr: await builtPages() });
  cleanup(() => services.catalogueEvents.close());
  await services.catalogueEvents.listening();
  return { database, app, services, cookie: await signUpAdmin(app, services) };
}
