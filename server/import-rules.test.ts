// The import rules of .dependency-cruiser.cjs fail when broken. `npm run lint:imports` passing on the
// tree proves nothing if a rule's path pattern matches no file, so each rule is run here against a
// small tree that breaks it (and makes the imports the rules allow), with the same CLI and config.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, test } from 'vitest'

const root = path.join(import.meta.dirname, '..')
const bin = path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs')

// path -> its imports. Every import here either breaks exactly one rule or is one a rule allows.
const fixture: Record<string, string[]> = {
  'server/providers/model.ts': ["import { plan } from '../research/run-context.ts'"],
  'server/research/plan.ts': ["import type { Jobs } from '../jobs/boss.ts'"],
  'server/research/runs.ts': ["import { EmailSchema } from '../notify/contract.ts'"],
  'server/topics/store.ts': ["import { runs } from '../research/pipeline.ts'"],
  'server/limits/http.ts': ["import { sendProblem } from '../http/problem.ts'"],
  'server/http/problem.ts': ["import type { AppServices } from '../../app/context.ts'"],
  'server/http/react-router.ts': ["import { servicesContext } from '../../app/context.ts'"],
  'server/mcp/run-tools.ts': [
    "import { getRun } from '../runs/repository/runs.ts'",
    "import type { Services } from '../services.ts'",
  ],
  // A composition root builds a module's repository (from the key ring) as well as its service.
  'server/services.ts': [
    "import { runs } from './services/runs.ts'",
    "import { chat } from './chat/service.ts'",
    "import { createReceipts } from './chat/repository/receipts.ts'",
  ],
  'server/services/runs.ts': [
    "import { sendProblem } from '../http/problem.ts'",
    "import { getRun } from '../repositories/runs.ts'",
    "import { plan } from '../research/pipeline.ts'",
  ],
  'server/accounts/accounts.ts': ["import type { Services } from '../services.ts'"],
  // Outside the accounts module, its contract's types and cookies; what notify and the runs need of
  // its tables (an account's row lock, a demo visitor's row) is handed to them as ports.
  'server/accounts/contract.ts': [],
  'server/accounts/demo-visitors.ts': [],
  'server/accounts/repository/accounts.ts': [],
  'server/http/api-auth.ts': [
    "import { KeyCheckBudgetError } from '../accounts/contract.ts'",
    "import { demoVisitor } from '../accounts/demo-visitors.ts'",
  ],
  'server/notify/webhooks/endpoints.ts': ["import { lockAccount } from '../../accounts/repository/accounts.ts'"],
  'server/runs/repository/runs.ts': [
    "import { loadTopicMemory } from '../../topics/store.ts'",
    "import { sealedColumn } from '../../crypto/sealed-column.ts'",
    "import { UUID } from '../../text/uuid.ts'",
    "import type { RunView } from '../../contracts/run.ts'",
    "import type { RunStatus } from '../../vocabulary/runs.ts'",
  ],
  // Outside the runs module, its service and contract: a mention starts its run through the runs'
  // service (a port), and the event hub reads the event log through a port.
  'server/runs/admission.ts': [],
  'server/runs/event-log.ts': [],
  'server/runs/contract.ts': [],
  'server/chat/github/events.ts': [
    "import { startAdmittedRun } from '../../runs/admission.ts'",
    "import type { RunEnd } from '../../runs/contract.ts'",
  ],
  'server/events/hub.ts': ["import { readRunEvents } from '../runs/event-log.ts'"],
  // Outside the engine, its entry, its ports and the report as read; its steps are its own.
  'server/research/pipeline.ts': ["import type { KeyRing } from '../crypto/key-ring.ts'"],
  'server/research/run-context.ts': [],
  'server/research/report-summary.ts': [],
  'server/research/novelty.ts': [],
  'app/components/report-view.tsx': [
    "import { changeCounts } from '../../server/research/report-summary.ts'",
    "import { novelty } from '../../server/research/novelty.ts'",
  ],
  'server/crypto/key-ring.ts': [],
  // The ring is named where columns are sealed, or where it is loaded; the engine takes their codecs
  // (server/research/pipeline.ts, below, names it).
  // What signs takes keys derived from the ring, not the ring.
  'server/crypto/derived-keys.ts': ["import type { KeyRing } from './key-ring.ts'"],
  'server/notify/email/tokens.ts': [
    "import type { DerivedKeys } from '../../crypto/derived-keys.ts'",
    "import type { KeyRing } from '../../crypto/key-ring.ts'",
  ],
  'server/crypto/sealed-column.ts': ["import { seal } from './key-ring.ts'"],
  // A module's repository and service are held to the same rules as the layers' (decision 063).
  'server/chat/repository/receipts.ts': [
    "import type { KeyRing } from '../../crypto/key-ring.ts'",
    "import { loadTopicMemory } from '../../topics/store.ts'",
  ],
  'server/chat/service.ts': [
    "import { receipts } from './repository/receipts.ts'",
    "import type { KeyRing } from '../crypto/key-ring.ts'",
  ],
  'server/http/api/webhooks.ts': ["import { receipts } from '../../chat/repository/receipts.ts'"],
  'server/text/uuid.ts': [],
  'server/text/prose.ts': ["import { search } from '../topics/search.ts'"],
  'server/text/prose.test.ts': ["import { store } from '../topics/store.ts'"],
  'server/claims/terms.ts': ["import type { Subject } from './subject.ts'"],
  'server/claims/subject.ts': ["import { terms } from './terms.ts'"],
  'db/schema.ts': [
    "import type { RunStatus } from '../server/vocabulary/runs.ts'",
    "import type { Logger } from '../server/logger.ts'",
  ],
  'db/seed.ts': ["import type { RunView } from '../server/contracts/run.ts'"],
  'server/vocabulary/runs.ts': [
    "import { SERIES_STATES } from './series.ts'",
    "import { UUID } from '../text/uuid.ts'",
    "import { RunSchema } from '../contracts/run.ts'",
  ],
  'server/vocabulary/series.ts': [],
  'db/migrate.ts': ["import { runs } from '../server/research/pipeline.ts'"],
  'server/jobs/boss.ts': [],
  'server/notify/deliver.ts': ["import { mentionBrief } from '../chat/mention.ts'"],
  'server/chat/mention.ts': [],
  'server/chat/mention-run.ts': [
    "import { EmailSchema } from '../notify/contract.ts'",
    "import { createDelivery } from '../notify/deliveries.ts'",
  ],
  'server/notify/deliveries.ts': [],
  // A module with several services keeps them in service/, held to the services' rules. Another
  // module's files use only its contract: its service is handed to them (server/chat/mention-run.ts).
  'server/notify/service.ts': ["import { email } from './service/email.ts'"],
  'server/notify/service/email.ts': ["import { sendProblem } from '../../http/problem.ts'"],
  'server/notify/contract.ts': [
    "import { DELIVERY_KINDS } from '../vocabulary/notify.ts'",
    "import { deliver } from './deliver.ts'",
  ],
  'server/vocabulary/notify.ts': [],
  // A module with one table keeps its SQL in repository.ts, held to the repositories' rules; outside
  // the module, what runs ask of a series comes through ports, not its domain files.
  'server/series/repository.ts': ["import { loadTopicMemory } from '../topics/store.ts'"],
  'server/series/schedule.ts': [],
  'server/series/contract.ts': [],
  'server/research/start-run.ts': [
    "import { createSeries } from '../series/schedule.ts'",
    "import type { SeriesView } from '../series/contract.ts'",
  ],
  'server/http/api/email.ts': [
    "import { EmailSchema } from '../../notify/contract.ts'",
    "import { email } from '../../notify/service/email.ts'",
  ],
  'server/topics/search.ts': [],
  'server/contracts/run.ts': [
    "import { SERIES_STATES } from '../vocabulary/series.ts'",
    "import { notify } from '../notify/service.ts'",
  ],
  'server/logger.ts': [],
  // Outside the topics module, its service and contract; the engine takes memory through a port.
  'server/topics/views.ts': [],
  'server/topics/contract.ts': [],
  'app/routes/topic.tsx': [
    "import type { TopicView } from '../../server/topics/contract.ts'",
    "import { topicView } from '../../server/topics/views.ts'",
  ],
  'server/research/step-synthesize.ts': ["import { loadTopicMemory } from '../topics/store.ts'"],
  // The platform imports no module: a refusal it words is answered over HTTP by the surface.
  'server/events/open-streams.ts': ["import { HttpProblem } from '../http/problem.ts'"],
  'server/events/ended-streams.ts': ["import { isStreamPrincipalActive } from '../accounts/streams.ts'"],
  'server/accounts/streams.ts': [],
  'app/context.ts': [],
}

let dir: string
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-import-rules-'))
  for (const [file, imports] of Object.entries(fixture)) {
    fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true })
    fs.writeFileSync(path.join(dir, file), [...imports, 'export const value = 1', ''].join('\n'))
  }
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'preserve', moduleResolution: 'bundler', allowImportingTsExtensions: true },
    }),
  )
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

type Violation = { rule: { name: string; severity: string }; from: string; to: string }

function depcruise(outputType: 'err' | 'json') {
  const args = [
    'server',
    'app',
    'db',
    '--config',
    path.join(root, '.dependency-cruiser.cjs'),
    '--output-type',
    outputType,
  ]
  return promisify(execFile)(process.execPath, [bin, ...args], { cwd: dir, maxBuffer: 16 * 1024 * 1024 })
}

test('a broken error rule fails the command that npm test runs', async () => {
  const failure = await depcruise('err').then(
    () => undefined,
    (error: { code: number; stdout: string }) => error,
  )
  expect(failure?.code).toBeGreaterThan(0)
  expect(failure?.stdout).toContain(
    'error providers-below-engine: server/providers/model.ts → server/research/run-context.ts',
  )
}, 60_000)

test('each import rule fails on the import that breaks it, and allows the rest', async () => {
  // The json report exits 0 whatever it finds: it is read, not run as a check.
  const { stdout } = await depcruise('json')
  const { summary } = JSON.parse(stdout) as { summary: { violations: Violation[] } }
  // A cycle is reported once, from whichever of its modules the cruise reached first.
  const found = summary.violations.map(({ rule, from, to }) =>
    rule.name === 'no-circular'
      ? `${rule.severity} ${rule.name}: ${[from, to].sort().join(' <-> ')}`
      : `${rule.severity} ${rule.name}: ${from} -> ${to}`,
  )
  expect(found.sort()).toEqual(
    [
      'error providers-below-engine: server/providers/model.ts -> server/research/run-context.ts',
      'error topics-below-engine: server/topics/store.ts -> server/research/pipeline.ts',
      'error research-below-surfaces: server/research/runs.ts -> server/notify/contract.ts',
      'error limits-below-surfaces: server/limits/http.ts -> server/http/problem.ts',
      'error text-is-the-bottom: server/text/prose.ts -> server/topics/search.ts',
      'error db-is-the-bottom: db/migrate.ts -> server/research/pipeline.ts',
      'error db-is-the-bottom: db/seed.ts -> server/contracts/run.ts',
      'error vocabulary-imports-nothing: server/vocabulary/runs.ts -> server/contracts/run.ts',
      'error contracts-over-the-vocabulary: server/contracts/run.ts -> server/notify/service.ts',
      'error contracts-over-the-vocabulary: server/notify/contract.ts -> server/notify/deliver.ts',
      'error services-below-surfaces: server/notify/service/email.ts -> server/http/problem.ts',
      'error notify-below-chat: server/notify/service/email.ts -> server/http/problem.ts',
      'error notify-is-a-module: server/chat/mention-run.ts -> server/notify/deliveries.ts',
      'error notify-is-a-module: server/http/api/email.ts -> server/notify/service/email.ts',
      'error notify-below-chat: server/notify/deliver.ts -> server/chat/mention.ts',
      'error no-circular: server/claims/subject.ts <-> server/claims/terms.ts',
      'error server-not-app: server/http/problem.ts -> app/context.ts',
      'error surfaces-call-services: server/mcp/run-tools.ts -> server/runs/repository/runs.ts',
      'error runs-is-a-module: server/mcp/run-tools.ts -> server/runs/repository/runs.ts',
      'error the-engine-is-a-module: app/components/report-view.tsx -> server/research/novelty.ts',
      'error services-below-surfaces: server/services/runs.ts -> server/http/problem.ts',
      'error services-are-called-not-calling-up: server/accounts/accounts.ts -> server/services.ts',
      'error accounts-is-a-module: server/http/api-auth.ts -> server/accounts/demo-visitors.ts',
      'error the-platform-imports-no-module: server/events/open-streams.ts -> server/http/problem.ts',
      'error the-platform-imports-no-module: server/limits/http.ts -> server/http/problem.ts',
      'error topics-is-a-module: server/chat/repository/receipts.ts -> server/topics/store.ts',
      'error topics-is-a-module: server/series/repository.ts -> server/topics/store.ts',
      'error topics-is-a-module: server/text/prose.ts -> server/topics/search.ts',
      'error topics-is-a-module: app/routes/topic.tsx -> server/topics/views.ts',
      'error topics-is-a-module: server/research/step-synthesize.ts -> server/topics/store.ts',
      'error the-platform-imports-no-module: server/events/ended-streams.ts -> server/accounts/streams.ts',
      'error accounts-is-a-module: server/events/ended-streams.ts -> server/accounts/streams.ts',
      'error accounts-is-a-module: server/notify/webhooks/endpoints.ts -> server/accounts/repository/accounts.ts',
      'error repositories-are-sql: server/runs/repository/runs.ts -> server/topics/store.ts',
      'error runs-is-a-module: server/chat/github/events.ts -> server/runs/admission.ts',
      'error runs-is-a-module: server/events/hub.ts -> server/runs/event-log.ts',
      'error the-platform-imports-no-module: server/events/hub.ts -> server/runs/event-log.ts',
      'error repositories-are-sql: server/chat/repository/receipts.ts -> server/topics/store.ts',
      'error surfaces-call-services: server/http/api/webhooks.ts -> server/chat/repository/receipts.ts',
      'error chat-is-a-module: server/http/api/webhooks.ts -> server/chat/repository/receipts.ts',
      'error chat-is-a-module: server/notify/deliver.ts -> server/chat/mention.ts',
      'error the-key-ring-is-named-below: server/research/pipeline.ts -> server/crypto/key-ring.ts',
      'error the-key-ring-is-named-below: server/notify/email/tokens.ts -> server/crypto/key-ring.ts',
      'error the-key-ring-is-named-below: server/chat/service.ts -> server/crypto/key-ring.ts',
      'error repositories-are-sql: server/series/repository.ts -> server/topics/store.ts',
      'error series-is-a-module: server/research/start-run.ts -> server/series/schedule.ts',
    ].sort(),
  )
}, 60_000)
