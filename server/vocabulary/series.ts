// The words of a recurring brief (a series), written once for its table, the API, MCP and the pages.

/** What its owner sets: it runs on its cadence (active), waits (paused), or never runs again. */
export const SERIES_STATUSES = ['active', 'paused', 'cancelled'] as const
export type SeriesStatus = (typeof SERIES_STATUSES)[number]

/**
 * What a reader is shown: sleeping (waits for its next run), running (a run is under way), paused and
 * cancelled as set.
 */
export const SERIES_STATES = ['sleeping', 'running', 'paused', 'cancelled'] as const
export type SeriesState = (typeof SERIES_STATES)[number]

/** When a run of the series is told: after every run, or only when something changed. */
export const SERIES_NOTIFY = ['always', 'changes'] as const
export type SeriesNotify = (typeof SERIES_NOTIFY)[number]
