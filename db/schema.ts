// Table types for Kysely. One `XTable` interface per table; rows are Selectable/Insertable<XTable>.
import type { ColumnType, Generated } from 'kysely'
import type { AccountKind, ApiKeyKind } from '#server/vocabulary/accounts.ts'
import type {
  ChatChannel,
  DeliveryChannel,
  DeliveryKind,
  DeliveryStatus,
  WebhookEndpointStatus,
  WebhookEventType,
} from '#server/vocabulary/notify.ts'
import type { RunStatus } from '#server/vocabulary/runs.ts'
import type { SeriesNotify, SeriesStatus } from '#server/vocabulary/series.ts'

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>
/**
 * A clear column of the schema before 20261122090000_sealed_briefs: the boot step in
 * server/seal-legacy.ts seals what it holds and empties it; nothing else reads or writes it.
 */
type Legacy<T> = ColumnType<T | null, never, null>

export interface SettingsTable {
  key: string
  value: ColumnType<unknown, string, string>
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

export interface AccountsTable {
  id: Generated<string>
  email: string
  password_hash: string | null
  kind: Generated<AccountKind>
  trial_token_hash: string | null
  created_at: Generated<Date>
}

export interface ApiKeysTable {
  id: Generated<string>
  account_id: string
  prefix: string
  secret_hash: string
  name: string
  kind: Generated<ApiKeyKind>
  created_at: Generated<Date>
  last_used_at: Timestamp | null
  revoked_at: Timestamp | null
}

export interface SessionsTable {
  token_hash: string
  account_id: string
  created_at: Generated<Date>
  expires_at: Timestamp
}

export interface IdempotencyKeysTable {
  account_id: string
  key: string
  request_hash: string
  status: number | null
  body: ColumnType<unknown, string | null, string | null>
  created_at: Generated<Date>
}

export interface TopicsTable {
  id: Generated<string>
  account_id: string
  /** Keyed HMAC of the account and the topic's normalized key (server/topics/topic-index.ts). */
  topic_hash: Buffer | null
  legacy_topic_key: Legacy<string>
  created_at: Generated<Date>
}

export interface TopicMemoryTable {
  topic_id: string
  key_id: string
  ciphertext: Buffer
  run_count: number
  urls_indexed: number
  facts_stored: number
  last_run_at: Timestamp
  expires_at: Timestamp
  updated_at: Timestamp
}

export interface RunsTable {
  id: Generated<string>
  account_id: string
  topic_hash: Buffer | null
  brief_key_id: string | null
  brief: Buffer | null
  source: string
  status: Generated<RunStatus>
  current_step: string | null
  has_memory: boolean
  prior_run_count: number
  checkpoint_key_id: string | null
  checkpoint: Buffer | null
  report_key_id: string | null
  report: Buffer | null
  error_key_id: string | null
  error: Buffer | null
  usage: ColumnType<unknown, string | null, string | null>
  deadline_at: Timestamp
  /** The run's own time limit, counted from when a worker first takes it (null: queued before it was kept). */
  time_limit_seconds: number | null
  created_at: Generated<Date>
  started_at: Timestamp | null
  finished_at: Timestamp | null
  series_id: string | null
  series_slot: number | null
  legacy_topic_key: Legacy<string>
  legacy_brief: Legacy<unknown>
  legacy_error: Legacy<{ code: string; message: string }>
}

export interface SeriesTable {
  id: Generated<string>
  account_id: string
  brief_key_id: string | null
  brief: Buffer | null
  legacy_brief: Legacy<unknown>
  status: Generated<SeriesStatus>
  slot: Generated<number>
  next_run_at: Timestamp | null
  scheduled_after_run_id: string | null
  /** The cadence: every this many seconds, or `cron` in `time_zone`; neither: RECURRING_INTERVAL. */
  every_seconds: number | null
  cron: string | null
  time_zone: string | null
  /** 'changes': a run that changed nothing is recorded, not delivered. */
  notify: Generated<SeriesNotify>
  /** Each run worth telling is mailed to the account's verified addresses (email_addresses). */
  email_digest: Generated<boolean>
  created_at: Generated<Date>
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

export interface RunEventsTable {
  id: Generated<number>
  run_id: string
  type: string
  step: string | null
  data_key_id: string | null
  data: Buffer | null
  legacy_data: Legacy<Record<string, unknown>>
  created_at: Generated<Date>
}

export interface CorpusDocumentsTable {
  id: Generated<number>
  url: string
  title: string
  published_date: ColumnType<Date | null, string | null, string | null>
  text: string
  /** An invented document (the sample in corpus/sample): every surface that shows it says so. */
  invented: Generated<boolean>
  indexed_at: Generated<Date>
  search: ColumnType<unknown, never, never>
}

export interface SlackWorkspacesTable {
  team_id: string
  account_id: string
  bot_token_key_id: string
  bot_token: Buffer
  created_at: Generated<Date>
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

export interface GithubRepositoriesTable {
  /** owner/name lower-cased: GitHub treats repository names case-insensitively. */
  repo_key: string
  repo: string
  account_id: string
  created_at: Generated<Date>
}

export interface WebhookReceiptsTable {
  provider: ChatChannel
  delivery_id: string
  received_at: Generated<Date>
  handled_at: Timestamp | null
  /** The mention's text, sealed, until the job acts on it. */
  payload_key_id: string | null
  payload: Buffer | null
}

export interface DeliveriesTable {
  id: Generated<string>
  run_id: string | null
  channel: DeliveryChannel
  kind: DeliveryKind
  target: ColumnType<unknown, string, string>
  notice_key_id: string | null
  notice: Buffer | null
  legacy_notice: Legacy<string>
  status: Generated<DeliveryStatus>
  parts_sent: Generated<number>
  attempts: Generated<number>
  last_error: string | null
  created_at: Generated<Date>
  sent_at: Timestamp | null
}

// Email digests (issue 20, step 4): an account's addresses and who unsubscribed from which series.
export interface EmailAddressesTable {
  id: Generated<string>
  account_id: string
  /** Lower-cased; unique per account. */
  address: string
  verified_at: Timestamp | null
  /** SHA-256 (hex) of the confirmation link's token, until it is used. */
  token_hash: string | null
  token_expires_at: Timestamp | null
  token_sent_at: Timestamp | null
  created_at: Generated<Date>
}

export interface EmailOptOutsTable {
  series_id: string
  address_id: string
  created_at: Generated<Date>
}

// Feeds (20261125120000_feeds): a private Atom feed of a topic's or a series' deltas, and the clear
// per-run index of what changed that it reads.
export interface FeedsTable {
  id: Generated<string>
  account_id: string
  topic_id: string | null
  series_id: string | null
  /** SHA-256 (hex) of the token in the feed's URL. */
  token_hash: string
  title_key_id: string
  title: Buffer
  created_at: Generated<Date>
  revoked_at: Timestamp | null
}

export interface RunChangesTable {
  run_id: string
  /** Claims new, updated or contradicted in the run's delta. */
  changes: number
  /** Whether the run's end was told (its series' notify setting let it through). */
  told: boolean
}

// Outbound webhooks (issue 20 step 3): an account's endpoints and its signing secret for a brief's webhookUrl.

export interface WebhookEndpointsTable {
  id: Generated<string>
  account_id: string
  url: string
  events: WebhookEventType[]
  description: string | null
  /** The signing secret (`whsec_...`), sealed, bound to the endpoint's id. */
  secret_key_id: string
  secret: Buffer
  status: Generated<WebhookEndpointStatus>
  consecutive_failures: Generated<number>
  disabled_reason: string | null
  disabled_at: Timestamp | null
  last_success_at: Timestamp | null
  last_failure_at: Timestamp | null
  created_at: Generated<Date>
  secret_rotated_at: Timestamp | null
}

export interface WebhookAccountSecretsTable {
  account_id: string
  secret_key_id: string
  secret: Buffer
  created_at: Generated<Date>
}

export interface Database {
  settings: SettingsTable
  accounts: AccountsTable
  api_keys: ApiKeysTable
  sessions: SessionsTable
  idempotency_keys: IdempotencyKeysTable
  topics: TopicsTable
  topic_memory: TopicMemoryTable
  runs: RunsTable
  run_events: RunEventsTable
  corpus_documents: CorpusDocumentsTable
  series: SeriesTable
  slack_workspaces: SlackWorkspacesTable
  github_repositories: GithubRepositoriesTable
  webhook_receipts: WebhookReceiptsTable
  deliveries: DeliveriesTable
  email_addresses: EmailAddressesTable
  email_opt_outs: EmailOptOutsTable
  feeds: FeedsTable
  run_changes: RunChangesTable
  webhook_endpoints: WebhookEndpointsTable
  webhook_account_secrets: WebhookAccountSecretsTable
}
