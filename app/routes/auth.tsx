import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/auth";
import { isProtectedPath, SIGN_IN_MESSAGES, safeRedirectPath } from "../auth/guard.ts";
import { field } from "../auth/form.ts";
import { Spinner } from "../components/Spinner.tsx";
import { pageMeta } from "../meta.ts";

export const handle = { shell: false };

export const meta: Route.MetaFunction = () => pageMeta("Sign In", "Sign in to Storefront or create your account.");

export function loader({ request }: Route.LoaderArgs) {
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  return {
    message: isProtectedPath(redirectTo) ? SIGN_IN_MESSAGES[redirectTo] : null,
    redirectTo: safeRedirectPath(redirectTo),
  };
}

/**
 * Sign-in and registration, as a plain form post: it works before hydration and without
 * JavaScript. The identity provider decides what is valid and its message is shown as it is.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const register = field(form, "intent") === "register";
  const email = field(form, "email").trim();
  const password = field(form, "password");
  const result = register ? await context.account.signUp(email, password) : await context.account.signIn(email, password);
  if (!result.ok) return data({ error: result.message }, { status: result.status });
  const headers = new Headers();
  for (const cookie of result.setCookies) headers.append("Set-Cookie", cookie);
  return redirect(safeRedirectPath(form.get("redirectTo")), { headers });
}

export default function Auth({ loaderData: { message, redirectTo }, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formMethod === "POST" && navigation.formAction?.startsWith("/auth");
  const busy = pending ? (navigation.formData?.get("intent") === "register" ? "register" : "signin") : null;
  return (
    <section className="panel narrow auth">
      <h1>Sign In</h1>
      {message && <p className="error-text auth__message">{message}</p>}
      <Form method="post" className="auth__form" aria-describedby="auth-error">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <label className="auth__label" htmlFor="auth-email">
          Email
        </label>
        <input id="auth-email" className="auth__input" type="email" name="email" autoComplete="email" />
        <label className="auth__label" htmlFor="auth-password">
          Password
        </label>
        <input id="auth-password" className="auth__input" type="password" name="password" autoComplete="current-password" />
        <button type="submit" name="intent" value="signin" className="button-primary auth__submit" disabled={busy !== null}>
          {busy === "signin" && <Spinner inline label="Signing in" />}
          Sign In
        </button>
        <p className="auth__legal">
          By signing in or creating an account you agree to Storefront&apos;s <Link to="/conditions-of-use">Conditions of Use</Link> and Sale.
          Please see our <Link to="/privacy-notice">Privacy Notice</Link>, our <Link to="/privacy-notice#cookies">Cookies Notice</Link> and our Interest-Based Ads Notice.
        </p>
        <button type="submit" name="intent" value="register" className="button-secondary auth__register" disabled={busy !== null}>
          {busy === "register" && <Spinner inline label="Creating your account" />}
          Create your account
        </button>
      </Form>
      {/* Always in the page, so screen readers announce the message the moment it arrives. */}
      <p id="auth-error" className="error-text auth__error" role="alert">
        {busy === null ? actionData?.error : null}
      </p>
      {/* After the form, so the keyboard goes from the password to Sign In. */}
      <p className="auth__back">
        <Link to="/auth/forgot">Forgot your password?</Link>
      </p>
    </section>
  );
}
