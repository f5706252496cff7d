/**
 * Vite build of the settings console (docs/console.md): served by Meridian at /console, assets with content hashes
 * under /console/assets, no inline script or style in the page (the server's Content-Security-Policy forbids them).
 * `@meridian/sdk` resolves to the workspace package's source, the same code its build ships.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  plugins: [react()],
  resolve: {
    alias: { '@meridian/sdk': fileURLToPath(new URL('../sdk-ts/src/index.ts', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1500,
  },
});
