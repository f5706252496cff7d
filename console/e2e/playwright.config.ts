/**
 * End-to-end tests of the settings console (docs/console.md) with Playwright's runner in Debian's Chromium (never a
 * browser download: docs/toolchain.md), against the real server started by ./server.ts on a fresh SQLite file (or
 * Postgres when TEST_DATABASE_URL is set). One worker: the journeys share one server and its first-run state.
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  // Each test is a whole journey of many pages (two themes and two widths screenshotted and axe-checked on each):
  // on a loaded 2-core machine one takes a minute or more. A bound against a hung page, not a speed check.
  timeout: 240_000,
  reporter: [['list']],
  globalSetup: './server.ts',
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.MERIDIAN_CHROMIUM ?? '/usr/bin/chromium' },
    viewport: { width: 1280, height: 800 },
    trace: 'off',
  },
  outputDir: '../../test/artifacts/console-e2e',
});
