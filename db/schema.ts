// Table types for Kysely. One `XTable` interface per table; rows are Selectable/Insertable<XTable>.
import type { ColumnType, Generated } from 'kysely'

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>

export interface SettingsTable {
  key: string
  value: ColumnType<unknown, string, string>
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

export interface AccountsTable {
  id: Generated<string>
  email: string
  password_hash: string | null
  kind: Generated<'standard' | 'local' | 'demo'>
  created_at: Generated<Date>
}

export interface ApiKeysTable {
  id: Generated<string>
  account_id: string
  prefix: string
  secret_hash: string
  name: string
  kind: Generated<'standard' | 'demo'>
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
  topic_key: string
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

export interface Database {
  settings: SettingsTable
  accounts: AccountsTable
  api_keys: ApiKeysTable
  sessions: SessionsTable
  idempotency_keys: IdempotencyKeysTable
  topics: TopicsTable
  topic_memory: TopicMemoryTable
}
