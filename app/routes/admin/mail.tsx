import { Link } from "react-router";
import type { Route } from "./+types/mail";
import { requireAdmin } from "../../admin/guard.ts";
import type { MailKind } from "../../../server/mail/templates/index.ts";
import { AdminTable, When } from "../../admin/ui.tsx";
import { MAIL_STATUS_WORDS } from "../../admin/words.ts";
import { pageMeta } from "../../meta.ts";

export const handle = { shell: false };

export const meta: Route.MetaFunction = () => pageMeta("Mail", "The mail outbox: sent, pending and failed messages.");

const PAGE = 25;
const STATUSES = ["pending", "sent", "failed"] as const;
type Status = (typeof STATUSES)[number];
const isStatus = (value: string | null): value is Status => STATUSES.includes(value as Status);

// Every kind the outbox sends has its words here: a new kind fails the typecheck until it does.
const KINDS: Record<MailKind, string> = {
  order_confirmation: "Order confirmation",
  password_reset: "Password reset",
  email_verification: "Email confirmation",
  refund: "Refund",
};

export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const params = new URL(request.url).searchParams;
  const wanted = params.get("status");
  const status = isStatus(wanted) ? wanted : undefined;
  const page = await admin.mail.page({
    status,
    limit: PAGE,
    before: params.get("before") ?? undefined,
  });
  // A cursor that is not one of ours: the first page, rather than an error.
  const shown = page.ok ? page : await admin.mail.page({ status, limit: PAGE });
  return {
    status: status ?? null,
    messages: shown.ok ? shown.messages : [],
    next: shown.ok ? shown.next : null,
  };
}

export default function AdminMailPage({ loaderData: { status, messages, next } }: Route.ComponentProps) {
  return (
    <section aria-labelledby="mail-heading">
      <h1 id="mail-heading">Mail</h1>
      <nav aria-label="Show mail" className="admin-tabs">
        <ul>
          {[null, ...STATUSES].map((value) => (
            <li key={value ?? "all"}>
              <Link to={value ? `?status=${value}` : "?"} aria-current={value === status ? "page" : undefined}>
                {value ? MAIL_STATUS_WORDS[value] : "All"}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {messages.length === 0 ? (
        <p className="admin__empty">No messages.</p>
      ) : (
        <AdminTable
          labelledBy="mail-heading"
          columns={["Written", "Message", "To", "Status", "Attempts", "Sent or next attempt"]}
          rows={messages.map((message) => ({
            key: message.id,
            cells: [
              <When key="written" at={message.created} />,
              (KINDS as Record<string, string | undefined>)[message.kind] ?? message.kind,
              <span key="to" className="admin-email">
                {message.recipient}
              </span>,
              <>
                {MAIL_STATUS_WORDS[message.status]}
                {message.last_error && <span className="admin-mail__error">{message.last_error}</span>}
              </>,
              message.attempts,
              message.sent_at !== null ? <When at={message.sent_at} /> : message.status === "pending" ? <When at={message.next_attempt_at} /> : "—",
            ],
          }))}
        />
      )}
      {next && (
        <p className="admin__pager">
          <Link to={`?${new URLSearchParams({ ...(status ? { status } : {}), before: next })}`}>Older messages</Link>
        </p>
      )}
    </section>
  );
}
