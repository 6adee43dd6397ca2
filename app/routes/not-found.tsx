import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { NotFound } from "../components/NotFound.tsx";
import { pageMeta } from "../meta.ts";

export const handle = { shell: false };

export const meta: Route.MetaFunction = () => pageMeta("Page not found", "This page does not exist.");

export function loader() {
  return data(null, { status: 404 });
}

export default NotFound;
