import { type ReactNode, useEffect } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useNavigation,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import { EARLY_TAPS_SCRIPT } from "./basket/early-taps.ts";
import { StoreProvider } from "./basket/store.tsx";
import { Footer } from "./components/Footer.tsx";
import { Header } from "./components/Header.tsx";
import { allPartsHydrated, HEADER_GROUP, HydrateLater, MAIN_GROUP } from "./components/HydrateLater.tsx";
import { NotFound } from "./components/NotFound.tsx";
import { Spinner } from "./components/Spinner.tsx";
import { useDocumentAssets } from "./document.ts";

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

/**
 * The user is server truth: read from the session on every request, so the first paint is right.
 * Only these fields go into the page: a signed-in page comes from a personal shell with a hole for
 * each (server/page-cache/shell-holes.ts).
 */
export function loader({ context }: Route.LoaderArgs) {
  const { user } = context;
  return { user: user && { uid: user.uid, email: user.email, role: user.role } };
}

export function Layout({ children }: { children: ReactNode }) {
  const assets = useDocumentAssets();
  const nonce = assets?.nonce;
  const user = useRouteLoaderData<typeof loader>("root")?.user ?? null;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* No frame is painted before the page's own content is parsed whole: a frame of the
            header half parsed (some of its boxes not there yet) laid out its rows shorter, and
            the rest, arriving, pushed the search bar and the row under it down (CLS 0.003 in
            Lighthouse's phone runs). Browsers without rel=expect ignore it. */}
        <link rel="expect" href="#main" blocking="render" />
        {/* Server-rendered only: when hydrating, React passes over a <head> element it did not
            render and leaves it in place, so the styles stay for the page's whole life (and the
            early-tap script has done its work by then). */}
        {assets && <style nonce={nonce} dangerouslySetInnerHTML={{ __html: assets.stylesheet }} />}
        {assets && <script nonce={nonce} dangerouslySetInnerHTML={{ __html: EARLY_TAPS_SCRIPT }} />}
        <meta name="theme-color" content="#131921" />
        <Meta />
        <Links />
      </head>
      {/* "Back to top" in the footer comes here. */}
      <body id="top">
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <StoreProvider user={user}>
          {/* The header and then the page's own content each hydrate in a task of their own (HydrateLater.tsx). */}
          <HydrateLater group={HEADER_GROUP}>
            <Header />
          </HydrateLater>
          <HydrateLater group={MAIN_GROUP}>
            <main id="main" className="page">
              {children}
            </main>
          </HydrateLater>
          <Footer />
        </StoreProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const navigation = useNavigation();
  // Marks the document once React has taken over, every part the first hydration put off included
  // (HydrateLater.tsx), so tests (and tooling) know clicks now work.
  useEffect(() => {
    void allPartsHydrated().then(() => {
      document.documentElement.dataset.hydrated = "true";
    });
  }, []);
  return (
    <>
      {navigation.state === "loading" && <Spinner />}
      <Outlet />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <>
        <title>Page not found | Storefront</title>
        <NotFound />
      </>
    );
  }
  return (
    <section className="panel narrow">
      <title>Something went wrong | Storefront</title>
      <h1>Something went wrong</h1>
      <p>Sorry, this page could not be shown. Please try again.</p>
    </section>
  );
}
