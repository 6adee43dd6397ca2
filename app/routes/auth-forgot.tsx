import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/auth-forgot";
import { field } from "../auth/form.ts";
import { Spinner } from "../components/Spinner.tsx";
import { pageMeta } from "../meta.ts";

export const handle = { shell: false };

export const meta: Route.MetaFunction = () => pageMeta("Forgot your password?", "Get a link to choose a new Storefront password.");

/**
 * Asks for a reset link. Whether an account exists for the email or not, the answer is the same
 * and comes after the same time; only a client over its rate limit hears something else.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await context.account.requestPasswordReset(field(form, "email").trim());
  if (!result.ok) return data({ sent: null, error: result.message }, { status: result.status });
  return { sent: result.message, error: null };
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST" && navigation.formAction?.startsWith("/auth/forgot");
  return (
    <section className="panel narrow auth">
      <h1>Forgot your password?</h1>
      <p className="auth__intro">Enter the email of your account and we will send you a link to choose a new password.</p>
      <Form method="post" className="auth__form" aria-describedby="forgot-error">
        <label className="auth__label" htmlFor="forgot-email">
          Email
        </label>
        <input id="forgot-email" className="auth__input" type="email" name="email" autoComplete="email" required />
        <button type="submit" className="button-primary auth__submit" disabled={busy}>
          {busy && <Spinner inline label="Sending the link" />}
          Send reset link
        </button>
      </Form>
      {/* Always in the page, so screen readers announce the answer the moment it arrives. */}
      <p className="auth__notice" role="status">
        {busy ? null : actionData?.sent}
      </p>
      <p id="forgot-error" className="error-text auth__error" role="alert">
        {busy ? null : actionData?.error}
      </p>
      <p className="auth__back">
        <Link to="/auth">Back to Sign In</Link>
      </p>
    </section>
  );
}
