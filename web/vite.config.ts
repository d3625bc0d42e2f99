// The web application's build (docs/decisions/0052): scripts/build.ts runs it into dist/web, served by the
// service itself at `/`. Nothing is loaded from another host, and no script or style is inline (the CSP allows
// 'self' only), so Vite's module-preload polyfill is off: every supported browser preloads modules itself.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import optimizeLocales from '@react-aria/optimize-locales-plugin';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  // react-aria ships its controls' own strings for 30+ languages; keep those of the catalogues we have (web/src/i18n).
  plugins: [react(), optimizeLocales.vite({ locales: ['en-US', 'de-DE'] })],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
