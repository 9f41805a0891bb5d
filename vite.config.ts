import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { shiftLaraLight } from './src/ui/theme/contrast.js';

// The SPA build. `npm start` serves dist/client from Fastify; `npm run dev` runs this dev server
// with /api proxied to the API process started beside it (scripts/dev.ts).
const apiPort = Number(process.env.API_PORT ?? 3001);

/** Lara light's 500 shades darkened to WCAG AA contrast as the theme is bundled (see contrast.ts). */
const laraContrast: Plugin = {
  name: 'lara-light-contrast',
  enforce: 'pre',
  transform(code, id) {
    return /lara-light-blue[\\/]theme\.css/.test(id) ? { code: shiftLaraLight(code), map: null } : null;
  },
};

export default defineConfig({
  plugins: [laraContrast, react()],
  build: { outDir: 'dist/client', emptyOutDir: true, sourcemap: true },
  server: {
    port: Number(process.env.PORT ?? 3000),
    proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false } },
  },
});
