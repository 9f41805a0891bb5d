import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The SPA build. `npm start` serves dist/client from Fastify; `npm run dev` runs this dev server
// with /api proxied to the API process started beside it (scripts/dev.ts).
const apiPort = Number(process.env.API_PORT ?? 3001);

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist/client', emptyOutDir: true, sourcemap: true },
  server: {
    port: Number(process.env.PORT ?? 3000),
    proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false } },
  },
});
