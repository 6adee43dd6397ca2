import { redirect } from "react-router";
import type { Route } from "./+types/sign-out";

export const handle = { shell: false };

/** The header's Sign Out: ends the session on the server, then home. Only a POST signs out. */
export async function action({ context }: Route.ActionArgs) {
  const result = await context.account.signOut();
  const headers = new Headers();
  if (result.ok) for (const cookie of result.setCookies) headers.append("Set-Cookie", cookie);
  return redirect("/", { headers });
}

export function loader() {
  return redirect("/");
}
