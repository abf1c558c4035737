// Import direction, checked by `npm run lint:imports` (part of `npm test`). From the top:
//   surfaces      app/, server/http, server/mcp, server/cli, server/jobs/definitions.ts
//   services      server/services.ts (the composition), server/services/, and each module's
//                 service.ts (what surfaces call)
//   modules       server/chat (Slack and GitHub mentions in, each a run), over server/notify (what
//                 Sextant sends out: replies in a thread or on a pull request, webhooks, email,
//                 feeds); server/runs, server/series, server/accounts, server/topics; and the engine,
//                 server/research (the pipeline, reports, the extractive synthesizer). Outside a
//                 module only its service.ts and contract.ts are used (the engine: its entry, its
//                 ports and the report as read); what one needs of another is a port (decision 063)
//   below it      server/claims, server/providers, and the platform: server/crypto, server/limits,
//                 server/events
//   repositories  server/repositories, and a module's repository.ts or repository/: SQL only
//   bottom        server/vocabulary (statuses, event types, the brief and report schemas, cadences,
//                 budgets, frameworks: each written once), over server/text (pure text functions),
//                 and db/ (migrations, table types, Kysely)
// Used from every layer: server/config.ts, server/logger.ts, server/crypto/secrets.ts (tokens and hashes),
// server/contracts (the zod view schemas)
// and the job system (server/jobs/boss.ts, queues.ts). A lower layer that needs something from a
// higher one takes it as a parameter (runs/end.ts takes an onEnded hook; services.ts composes
// it). The composition roots (server/start.ts, server/cli.ts) may import anything.
// Type-only imports count: a type cycle is a tangle too. Unit tests beside their source may import
// across layers (they are not shipped code). The rules fence what went wrong before; the platform
// (server/crypto, limits, events, the job system, config, logger) imports no module; claims has no
// rule of its own. server/import-rules.test.ts proves each rule can fail.

const TESTS = '\\.test\\.tsx?$'
const SURFACES = '^(app/|server/(http|mcp|cli)/|server/jobs/definitions\\.ts$)'
// A module's service, repository and contract are known by their names (decision 063):
// server/chat/service.ts, server/series/repository.ts, server/chat/contract.ts; service/ and
// repository/ when a module has several (server/notify/service/, server/chat/repository/).
const SERVICES = '^server/(services(\\.ts$|/)|[^/]+/service(\\.ts$|/))'
const REPOSITORIES = '^server/(repositories/|[^/]+/repository(\\.ts$|/))'
const CONTRACTS = '^server/(contracts/|[^/]+/contract\\.ts$)'
// The composition roots: they build each module's parts (its repository from the key ring, its
// service) and hand one module's service to another.
const COMPOSITION = '^server/(services|start|cli)\\.ts$'
// A sealed column's codec and the key ring it is built from: what a repository seals and opens with.
const SEALING = '^server/crypto/(sealed-column|key-ring)\\.ts$'
const BELOW_SERVICES =
  '^server/(runs|research|chat|notify|series|accounts|topics|limits|events|claims|providers|repositories|text)/'

/**
 * A feature module's rule (decision 063): outside server/<name>/, only `used` (its service.ts and
 * contract.ts) are imported. The composition roots build its repository and service; the sealing
 * migration at boot (server/seal-legacy.ts) reads every sealed column.
 */
function moduleRule(name, used, unmoved = [], why = 'Until they move into their modules, they keep their layer rules') {
  const until = unmoved.length > 0 ? ` Not held to it yet: ${unmoved.join(', ')}. ${why}.` : ''
  return {
    name: `${name}-is-a-module`,
    severity: 'error',
    comment: `Outside server/${name}/, only ${used} are used (decision 063). The composition roots and the sealing migration at boot are the exceptions.${until}`,
    from: {
      path: '^(app|db|server)/',
      pathNot: [TESTS, `^server/${name}/`, COMPOSITION, '^server/seal-legacy\\.ts$', ...unmoved],
    },
    to: { path: `^server/${name}/`, pathNot: `^server/${name}/(service|contract)\\.ts$` },
  }
}

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
      to: { path: [SURFACES, SERVICES, '^server/(research|chat|notify|jobs)/'] },
    },
    {
      name: 'topics-below-engine',
      severity: 'error',
      comment:
        'Topic memory (server/topics) is read and written by the engine and the services; it knows neither. Its ' +
        'service (service.ts) answers the surfaces and may use what the engine knows.',
      from: { path: '^server/topics/', pathNot: [TESTS, '^server/topics/service\\.ts$'] },
      to: { path: [SURFACES, SERVICES, '^server/(research|chat|notify|jobs)/'] },
    },
    {
      name: 'research-below-surfaces',
      severity: 'error',
      comment:
        'The engine does not know who asked (HTTP, MCP, chat, the CLI) nor what a surface does when a ' +
        'run ends: surfaces pass that in. It may use the job system (jobs/boss.ts), not the job handlers.',
      from: { path: '^server/research/', pathNot: TESTS },
      to: { path: [SURFACES, SERVICES, '^server/(chat|notify)/'] },
    },
    {
      name: 'notify-below-chat',
      severity: 'error',
      comment:
        'What Sextant sends out (server/notify: replies, webhooks, email, feeds of what a run found) is ' +
        'not told by whom a run was asked: a mention (server/chat) queues its replies through notify, ' +
        'never the other way round.',
      from: { path: '^server/notify/', pathNot: TESTS },
      to: { path: [SURFACES, SERVICES, '^server/chat/'], pathNot: '^server/notify/' },
    },
    moduleRule(
      'chat',
      'its service (service.ts) and its contract (contract.ts: the inbound payloads and what Slack and ' +
        'GitHub are told)',
    ),
    moduleRule(
      'notify',
      "its service (service.ts: deliveries, webhooks, email, feeds, what a run's end owes, and what chat " +
        'asks of it) and its contract (contract.ts: the views its surfaces answer with)',
    ),
    moduleRule(
      'accounts',
      'its service (service.ts: accounts, passwords, sessions, trial and demo visitors, API keys, and what ' +
        'the event hub asks of a session or key) and its contract (contract.ts: the views, the types and ' +
        'errors others are handed, and the cookies)',
    ),
    moduleRule(
      'topics',
      'its service (service.ts: the views every surface shows, search, compare, export, the memory check, ' +
        'the purge, and the topic a feed follows) and its contract (contract.ts: memory as the engine is ' +
        'handed it, the views, the memory check)',
      // The engine and the runs' service take topic memory through a port (RunMemory, in
      // server/research/run-context.ts). The runs' repository joins the topic memory table in the
      // statements a run's start reads with, until the runs move (decision 063, step 4).
      ['^server/runs/repository/runs\\.ts$'],
    ),
    moduleRule(
      'series',
      "its service (service.ts: the API's and pages' series, run now, the wake job, and what a run's start " +
        'and end and the run views ask of a series) and its contract (contract.ts)',
    ),
    moduleRule(
      'runs',
      "its service (service.ts: start, view, list, cancel and follow a run; a series' runs; who may ask and " +
        "why one is refused) and its contract (contract.ts: the views, the events, what a run's end tells " +
        'its hooks)',
    ),
    {
      name: 'the-engine-is-a-module',
      severity: 'error',
      comment:
        'Outside server/research/, the engine is used by its entry (pipeline.ts: runResearch and what it ' +
        'is handed), its ports (run-context.ts: what it asks of the run it works on and of topic memory) ' +
        'and the report as it is read (report-types.ts, report-summary.ts, stored-report.ts, ' +
        'search-origin.ts); its steps, the extractive synthesizer, the delta and the rest are its own ' +
        '(decision 063). The composition roots build it.',
      from: { path: '^(app|db|server)/', pathNot: [TESTS, '^server/research/', COMPOSITION] },
      to: {
        path: '^server/research/',
        pathNot:
          '^server/research/(pipeline|run-context|report-types|report-summary|stored-report|search-origin)\\.ts$',
      },
    },
    {
      name: 'the-platform-imports-no-module',
      severity: 'error',
      comment:
        'The platform (the key ring, sealed columns and secrets in server/crypto, rate limits, run events ' +
        'and their streams, the job system, the config and the logger) is under every module and the ' +
        'engine: it imports none of them, nor a service or a surface (decision 063). What it needs of a ' +
        'module (is a session still active) it is handed as a port.',
      from: {
        path: [
          '^server/(crypto|limits|events)/',
          '^server/jobs/(boss|queues|queue-probe)\\.ts$',
          '^server/(config|logger)\\.ts$',
        ],
        pathNot: TESTS,
      },
      to: {
        path: [
          '^server/(accounts|series|chat|notify|topics|runs|research|claims|services|http|mcp|cli)/',
          '^server/(services|start|cli|main|seal-legacy)\\.ts$',
          '^app/',
        ],
      },
    },
    {
      name: 'the-key-ring-is-named-below',
      severity: 'error',
      comment:
        "The memory key ring (server/crypto/key-ring.ts) is named only in the platform's cryptography " +
        '(server/crypto: the codecs, the installation keys sealed with it), where it is loaded (the config ' +
        'and the composition roots, which build the repositories from it), where columns are sealed and ' +
        'opened (the repositories) and by the sealing migration at boot. The rest, services included, ' +
        'takes a codec, a repository or derived keys built from it (decision 064).',
      from: {
        path: '^(app|db|server)/',
        pathNot: [TESTS, REPOSITORIES, '^server/crypto/', COMPOSITION, '^server/(config|seal-legacy)\\.ts$'],
      },
      to: { path: '^server/crypto/key-ring\\.ts$' },
    },
    {
      name: 'limits-below-surfaces',
      severity: 'error',
      comment: 'Limits decide and word a refusal; answering it over HTTP is server/http/rate-limit.ts.',
      from: { path: '^server/limits/', pathNot: TESTS },
      to: { path: [SURFACES, SERVICES, '^server/(research|chat|notify|jobs)/'] },
    },
    {
      name: 'text-is-the-bottom',
      severity: 'error',
      comment: 'server/text holds pure text functions every layer shares; it imports only itself.',
      from: { path: '^server/text/', pathNot: TESTS },
      to: { path: '^(app|db|server)/', pathNot: '^server/text/' },
    },
    {
      name: 'vocabulary-imports-nothing',
      severity: 'error',
      comment:
        'server/vocabulary holds each status and event-type list, the brief and report schemas, cadences, ' +
        'budgets and the frameworks once, for the tables, the contracts, the engine and the pages; it ' +
        'imports nothing of the server but the pure text functions under it (server/text), so anything ' +
        'may import it.',
      from: { path: '^server/vocabulary/', pathNot: TESTS },
      to: { path: '^(app|db|server)/', pathNot: '^server/(vocabulary|text)/' },
    },
    {
      name: 'contracts-over-the-vocabulary',
      severity: 'error',
      comment:
        "server/contracts and a module's contract.ts (the zod views the API, MCP and the pages answer " +
        'with) are built from the vocabulary alone: they import no engine, store or delivery code, so ' +
        'every layer may use them.',
      from: { path: CONTRACTS, pathNot: TESTS },
      to: { path: '^(app|db|server)/', pathNot: ['^server/(vocabulary|text)/', CONTRACTS] },
    },
    {
      name: 'db-is-the-bottom',
      severity: 'error',
      comment:
        'db/ (migrations, table types, Kysely) sits under everything. It may take the logger type and, ' +
        'for typed columns, the vocabulary (server/vocabulary), nothing else.',
      from: { path: '^db/', pathNot: TESTS },
      to: { path: '^(app|server)/', pathNot: '^server/(logger\\.ts$|vocabulary/)' },
    },
    {
      name: 'surfaces-call-services',
      severity: 'error',
      comment:
        'A route, page, MCP tool, command or job handler calls services (server/services/): it does ' +
        'not touch the database, SQL or the repositories itself.',
      from: { path: SURFACES, pathNot: TESTS },
      to: { path: ['^db/', REPOSITORIES] },
    },
    {
      name: 'services-below-surfaces',
      severity: 'error',
      comment: 'Services do not know who calls them (HTTP, MCP, a page, a job, the CLI).',
      from: { path: SERVICES, pathNot: TESTS },
      to: { path: SURFACES },
    },
    {
      name: 'services-are-called-not-calling-up',
      severity: 'error',
      comment: 'What the services are made of never reaches back up to them.',
      from: { path: BELOW_SERVICES, pathNot: [TESTS, SERVICES] },
      to: { path: SERVICES },
    },
    {
      name: 'repositories-are-sql',
      severity: 'error',
      comment:
        'A repository is SQL over db/: it may use the contracts (types), the vocabulary, text ' +
        "functions and the logger, other repositories, and the sealed columns' codecs it opens and " +
        'seals its columns with (decision 064), nothing that decides.',
      from: { path: REPOSITORIES, pathNot: TESTS },
      to: {
        path: '^(app|server)/',
        pathNot: [CONTRACTS, '^server/(vocabulary/|text/|logger\\.ts$)', REPOSITORIES, SEALING],
      },
    },
    {
      name: 'server-not-app',
      severity: 'error',
      comment:
        'The React Router app is a surface over server/; server/ must not depend on it. The one ' +
        'exception is the router context key, which server/http/react-router.ts sets.',
      from: { path: '^server/', pathNot: [TESTS, '^server/http/react-router\\.ts$'] },
      to: { path: '^app/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
}
