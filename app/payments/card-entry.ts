/** What the checkout asks of a card entry (our test field, or Stripe's CardElement). */
export interface CardEntryHandle {
  /** Shows every inline error the entry has; true when the card can be charged. */
  check(): boolean;
  /** Confirms the payment of `clientSecret` with the card entered. */
  confirm(clientSecret: string): Promise<ConfirmResult>;
}

export type ConfirmResult = { ok: true; paymentIntentId: string } | { ok: false; message: string };

/** A JSON POST to our own API; the answer's body, or null when it is not JSON. */
export async function postJson(path: string, body: unknown): Promise<{ ok: boolean; status: number; body: unknown }> {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { ok: response.ok, status: response.status, body: await response.json().catch(() => null) };
}

/** The message in an /api error answer: `{ error: "..." }` or Stripe's `{ error: { message } }`. */
export function errorMessage(body: unknown, fallback: string): string {
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === "string") return error;
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : fallback;
}

export const TRY_AGAIN = "Something went wrong with your payment. Please try again.";
