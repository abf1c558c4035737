// Import direction, checked by `npm run lint:imports` (part of `npm test`). From the top:
//   surfaces  app/, server/http, server/mcp, server/cli, server/integrations, server/jobs/definitions.ts
//   engine    server/research (runs, the pipeline, reports, the extractive synthesizer)
//   below it  server/memory, server/auth, server/limits, server/events, server/claims, server/providers
//   bottom    server/text (pure text functions) and db/ (migrations, table types, Kysely)
// Used from every layer: server/config.ts, server/logger.ts, server/contracts (the zod view schemas)
// and the job system (server/jobs/boss.ts). A lower layer that needs something from a higher one
// takes it as a parameter (research/run-end.ts takes an onEnded hook; server/start.ts composes it).
// Type-only imports count: a type cycle is a tangle too. Unit tests beside their source may import
// across layers (they are not shipped code). The rules fence what went wrong before; auth, events
// and claims have no rule of their own yet. server/import-rules.test.ts proves each rule can fail.

const TESTS = '\\.test\\.tsx?$'
const SURFACES = '^(app/|server/(http|mcp|cli|integrations)/)'

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other cannot be read, tested or moved one at a time.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'providers-below-engine',
      severity: 'error',
      comment:
        'Providers are adapters the engine calls (search, models, the page reader); what the engine ' +
        'does with them (the extractive fallback, plans, reports) lives in server/research.',
      from: { path: '^server/providers/', pathNot: TESTS },
      to: { path: [SURFACES, '^server/(research|jobs)/'] },
    },
    {
      name: 'memory-below-engine',
      severity: 'error',
      comment: 'Topic memory is read and written by the engine and the surfaces; it knows neither.',
      from: { path: '^server/memory/', pathNot: TESTS },
      to: { path: [SURFACES, '^server/(research|jobs)/'] },
    },
    {
      name: 'research-below-surfaces',
      severity: 'error',
      comment:
        'The engine does not know who asked (HTTP, MCP, chat, the CLI) nor what a surface does when a ' +
        'run ends: surfaces pass that in. It may use the job system (jobs/boss.ts), not the job handlers.',
      from: { path: '^server/research/', pathNot: TESTS },
      to: { path: [SURFACES, '^server/jobs/definitions\\.ts$'] },
    },
    {
      name: 'limits-below-surfaces',
      severity: 'error',
      comment: 'Limits decide and word a refusal; answering it over HTTP is server/http/rate-limit.ts.',
      from: { path: '^server/limits/', pathNot: TESTS },
      to: { path: [SURFACES, '^server/(research|jobs)/'] },
    },
    {
      name: 'text-is-the-bottom',
      severity: 'error',
      comment: 'server/text holds pure text functions every layer shares; it imports only itself.',
      from: { path: '^server/text/', pathNot: TESTS },
      to: { path: '^(app|db|server)/', pathNot: '^server/text/' },
    },
    {
      name: 'db-is-the-bottom',
      severity: 'error',
      comment:
        'db/ (migrations, table types, Kysely) sits under everything. It may take the logger type and, ' +
        'for typed columns, types from server/contracts (the zod view schemas), nothing else.',
      from: { path: '^db/', pathNot: TESTS },
      to: { path: '^(app|server)/', pathNot: '^server/(logger\\.ts$|contracts/)' },
    },
    {
      name: 'db-takes-only-types-from-contracts',
      severity: 'error',
      comment: 'A value import would run the contracts (and what they import) inside migrations.',
      from: { path: '^db/', pathNot: TESTS },
      to: { path: '^server/contracts/', dependencyTypesNot: ['type-only'] },
    },
    {
      // Issue 19 step 1 (the service layer) removes the offenders: server/http, server/mcp and
      // server/start.ts take AppServices from app/context.ts today. Make this an error when it lands.
      name: 'server-not-app',
      severity: 'warn',
      comment: 'The React Router app is a surface over server/; server/ must not depend on it.',
      from: { path: '^server/', pathNot: TESTS },
      to: { path: '^app/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
}
