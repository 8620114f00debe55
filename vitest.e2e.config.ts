import { defineConfig } from 'vitest/config';
import unit, { SLOW_E2E } from './vitest.config.js';

/**
 * `npm run test:e2e`: the few slow end-to-end tests (`*.slow-e2e.test.ts`), kept out of `npm test`:
 * the installed package (npm pack, offline install, init, eval, record) and the HTML report in
 * headless Chromium. CI runs them after `npm test`.
 */
const { projects: _unitProjects, ...settings } = unit.test ?? {};
export default defineConfig({
  ...unit,
  test: { ...settings, include: [SLOW_E2E], exclude: [] },
});
