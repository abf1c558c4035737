// The report a complete run returns (spec 2.3: summary, delta, sources; plus generatedWith, usage).

export type ReportSource = {
  n: number
  url: string
  title: string
  publishedAt: string | null
  snippet: string
}

export type ReportDelta = {
  /** True on the first run of a topic (or after memory expired): everything is new. */
  baseline: boolean
  /** When memory was last saved before this run (ISO), or null on a baseline. */
  since: string | null
  newFindings: Array<{ text: string; sources: number[] }>
  /** Markdown. Says plainly when nothing is new. */
  summary: string
}

export type Report = {
  /** Markdown in the requested style, citations as [n] pointing into `sources`. */
  summary: string
  delta: ReportDelta
  /** Only sources read in this run, numbered as the citations use them. */
  sources: ReportSource[]
  generatedWith: {
    synthesis: string
    synthesisKind: 'model' | 'extractive'
    search: string
    plan: 'model' | 'fallback'
  }
  usage: { inputTokens: number; outputTokens: number; searchCalls: number; costDollars: number | null }
}
