import type { Route } from "./+types/auth";
import { isProtectedPath, SIGN_IN_MESSAGES } from "../auth/guard.ts";
import { pageMeta } from "../meta.ts";

export const meta: Route.MetaFunction = () => pageMeta("Sign In", "Sign in to Storefront or create your account.");

export function loader({ request }: Route.LoaderArgs) {
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  return { message: isProtectedPath(redirectTo) ? SIGN_IN_MESSAGES[redirectTo] : null };
}

// Accounts (sign-in and registration) arrive with the accounts issue; this screen shows the
// heading and the redirect message the protected pages already send here.
export default function Auth({ loaderData: { message } }: Route.ComponentProps) {
  return (
    <section className="panel narrow">
      <h1>Sign In</h1>
      {message && (
        <p className="error-text" role="alert">
          {message}
        </p>
      )}
      <p>Signing in and creating an account are not open yet.</p>
    </section>
  );
}
