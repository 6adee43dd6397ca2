import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/auth-reset";
import { field } from "../auth/form.ts";
import { Spinner } from "../components/Spinner.tsx";
import { pageMeta } from "../meta.ts";

export const handle = { shell: false };

export const meta: Route.MetaFunction = () => pageMeta("Choose a new password", "Choose a new password for your Storefront account.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const link = await context.account.checkResetLink(token);
  return { token, linkError: link.ok ? null : link.message };
}

/**
 * Sets the new password with the mailed link's token: every session of the account ends, and
 * this browser is signed in with a new one. A used or expired link says so.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const token = field(form, "token");
  const result = await context.account.resetPassword(token, field(form, "password"));
  if (!result.ok) {
    const link = await context.account.checkResetLink(token);
    return data({ error: result.message, linkDead: !link.ok }, { status: result.status });
  }
  const headers = new Headers();
  for (const cookie of result.setCookies) headers.append("Set-Cookie", cookie);
  return redirect("/", { headers });
}

export default function ResetPassword({ loaderData: { token, linkError }, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST" && navigation.formAction?.startsWith("/auth/reset");
  const deadLink = linkError ?? (actionData?.linkDead ? actionData.error : null);
  return (
    <section className="panel narrow auth">
      <h1>Choose a new password</h1>
      {deadLink ? (
        <>
          <p className="error-text auth__message" role="alert">
            {deadLink}
          </p>
          <Link to="/auth/forgot" className="button-primary auth__submit">
            Send me a new link
          </Link>
        </>
      ) : (
        <>
          <Form method="post" className="auth__form" aria-describedby="reset-hint reset-error">
            <input type="hidden" name="token" value={token} />
            <label className="auth__label" htmlFor="reset-password">
              New password
            </label>
            <input
              id="reset-password"
              className="auth__input"
              type="password"
              name="password"
              autoComplete="new-password"
              minLength={8}
              maxLength={128}
              required
            />
            <p id="reset-hint" className="auth__hint">
              8 to 128 characters. Every other device signed in to your account will be signed out.
            </p>
            <button type="submit" className="button-primary auth__submit" disabled={busy}>
              {busy && <Spinner inline label="Saving your password" />}
              Save new password
            </button>
          </Form>
          <p id="reset-error" className="error-text auth__error" role="alert">
            {busy ? null : actionData?.error}
          </p>
        </>
      )}
    </section>
  );
}
