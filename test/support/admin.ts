import { COMMAND_LINE } from "../../server/audit/log.ts";
import { setRole } from "../../server/auth/staff.ts";
import type { Services } from "../../server/services.ts";
import { jsonPost, type testApp } from "./app.ts";

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
