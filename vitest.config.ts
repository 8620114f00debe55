import { defineConfig } from 'vitest/config';

/** Unit tests: colocated `*.test.ts` beside the code. Evals have their own config. */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
