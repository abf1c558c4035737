// Table types for Kysely. One `XTable` interface per table; rows are Selectable/Insertable<XTable>.
import type { ColumnType } from 'kysely'

export interface SettingsTable {
  key: string
  value: ColumnType<unknown, string, string>
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

export interface Database {
  settings: SettingsTable
}
