// How the brief's choices read on the pages: the forms offer them and the run page names them.
export const TIMEFRAME_LABELS = {
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
  all: 'Any time',
} as const

export const REPORT_STYLE_LABELS = {
  executive: 'Executive summary',
  bullet: 'Bullet points by theme',
  memo: 'Memo',
  framework: 'Framework sections',
} as const

/** `{ value, label }` pairs, in the order the labels are listed, for a select. */
export function optionsOf(labels: Record<string, string>): { value: string; label: string }[] {
  return Object.entries(labels).map(([value, label]) => ({ value, label }))
}
