import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * The contract's modules only declare schemas and constants, so a chunk that uses one constant need not
 * carry every schema (and zod with them): this keeps zod out of the sign-in page's first download.
 */
function contractWithoutSideEffects(): Plugin {
  return {
    name: 'lumi:contract-without-side-effects',
    transform: {
      filter: { id: /[\\/]packages[\\/]contract[\\/]src[\\/]/ },
      handler: () => ({ moduleSideEffects: false }),
    },
  };
}

export default defineConfig({
  base: '/admin/',
  plugins: [react(), tailwindcss(), contractWithoutSideEffects()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  build: { target: 'es2022', sourcemap: true, manifest: true, chunkSizeWarningLimit: 800 },
});
