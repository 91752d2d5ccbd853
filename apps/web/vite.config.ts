import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './vite-precompress.ts';

export default defineConfig({
  base: '/admin/',
  plugins: [react(), tailwindcss(), precompress()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  // Monaco is one large chunk loaded only by the editors; the sign-in budget is enforced by scripts/size.mjs.
  build: { target: 'es2022', sourcemap: true, manifest: true, chunkSizeWarningLimit: 3000 },
});
