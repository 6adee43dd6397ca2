/**
 * The server build's entry (build/server/index.js): React Router's build, plus the request handler
 * of the same copy of React Router. The production build bundles React Router's production files
 * (vite.config.ts), and the request handler and the route modules check each other's classes
 * (redirects, data responses) with `instanceof`: a handler imported from the bare `react-router`
 * by the server would be another copy, so the server takes this one.
 */
export * from "virtual:react-router/server-build";
export { createRequestHandler } from "react-router";
