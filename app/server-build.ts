/**
 * The server build's entry (build/server/index.js): React Router's build, plus the request handler
 * of the React Router that the route modules import, so that the server needs no import of its own
 * from the app's dependencies to serve it.
 */
export * from "virtual:react-router/server-build";
export { createRequestHandler } from "react-router";
