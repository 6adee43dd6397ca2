import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [reactRouter()],
  build: {
    // Small icons may be inlined as data: URLs; the CSP allows data: images for that.
    assetsInlineLimit: 2048,
  },
});
