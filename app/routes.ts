import { type RouteConfig, index, route } from "@react-router/dev/routes";

// Spec section 2.
export default [
  index("routes/home.tsx"),
  route("auth", "routes/auth.tsx"),
  route("auth/forgot", "routes/auth-forgot.tsx"),
  route("auth/reset", "routes/auth-reset.tsx"),
  route("sign-out", "routes/sign-out.tsx"),
  route("payment", "routes/payment.tsx"),
  route("orders", "routes/orders.tsx"),
  route("results/:categoryName", "routes/results.tsx"),
  route("products/:productId", "routes/product.tsx"),
  route("cart", "routes/cart.tsx"),
  route("language", "routes/language.tsx"),
  route("search", "routes/search.tsx"),
  // The notices the sign-in page names (the footer links them from every page).
  route("conditions-of-use", "routes/conditions-of-use.tsx"),
  route("privacy-notice", "routes/privacy-notice.tsx"),
  // The back office, for admins only (anyone else gets this app's 404).
  route("admin", "routes/admin/layout.tsx", [
    index("routes/admin/index.tsx"),
    route("audit", "routes/admin/audit.tsx"),
    route("products", "routes/admin/products.tsx"),
    route("products/new", "routes/admin/products-new.tsx"),
    route("products/import", "routes/admin/products-import.tsx"),
    route("products/:productId", "routes/admin/products-edit.tsx"),
    route("orders", "routes/admin/orders.tsx"),
    route("orders/:orderId", "routes/admin/order.tsx"),
    route("mail", "routes/admin/mail.tsx"),
  ]),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
