/** The back office's sections, in the order its navigation shows them. */
export const ADMIN_SECTIONS: ReadonlyArray<{ to: string; label: string; description: string }> = [
  { to: "/admin/products", label: "Products", description: "Every product: find, add, edit, picture, stock, archive." },
  { to: "/admin/orders", label: "Orders", description: "Every customer's orders, by status and email; refunds." },
  { to: "/admin/mail", label: "Mail", description: "The mail outbox: what was sent, what waits, what failed." },
  { to: "/admin/audit", label: "Audit log", description: "Every change made in the back office: who, what, when, before and after." },
];
