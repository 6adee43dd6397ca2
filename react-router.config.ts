import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  future: {
    v8_splitRouteModules: true,
    v8_trailingSlashAwareDataRequests: true,
    v8_passThroughRequests: true,
    v8_viteEnvironmentApi: true,
    // v8_middleware replaces the plain load context our server hands loaders; adopt it together
    // with the move to React Router 8.
    v8_middleware: false,
  },
} satisfies Config;
