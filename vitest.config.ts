// Two projects: unit tests beside their source, and integration tests in test/ that run against
// one embedded Postgres started for the whole run (each file gets a fresh database).
import os from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one file at a time on a two-core machine.
    // An integration file spends about half its time waiting (stub latencies, Postgres, the processes
    // it starts), so one worker more than the cores keeps both busy: on two cores the suite took 12m49
    // with one worker and 6m49 with three (docs/decisions/031-test-workers.md). At most six: each file's
    // apps hold up to about 30 connections to the one embedded Postgres (max_connections 200).
    maxWorkers: Math.min(os.availableParallelism() + 1, 6),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{app,server,db,bench}/**/*.test.{ts,tsx}'],
          environment: 'node',
          // A budget, not a clock: property tests run hundreds of cases, which on a busy two-core
          // machine took longer than vitest's 5 s default (issue 41, item 2). A test that hangs still fails.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 90_000,
        },
      },
    ],
  },
})
