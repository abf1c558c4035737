// The report a complete run returns (spec 2.3: summary, delta, sources; plus integrity, generatedWith,
// usage and budget). The types are inferred from these schemas; the OpenAPI document and the MCP
// get_run_report tool render them, so the three cannot disagree.
import { z } from 'zod'

const timestamp = () => z.iso.datetime()

/** A claim of the report: what it says, the words of the cited pages that support it, the pages. */
export const ReportFindingSchema = z.object({
  text: z.string(),
  quote: z.string().describe('Words of the cited pages, verbatim, that support the claim.'),
  sources: z.array(z.int()).describe('The `n` of each source whose text holds the quote.'),
})

export const PreviousClaimSchema = z
  .object({
    text: z.string(),
    seenAt: timestamp().describe('When a run last found the previous claim.'),
    urls: z.array(z.string()),
  })
  .describe('What memory held before this run.')

export const ReportChangeSchema = ReportFindingSchema.extend({ previous: PreviousClaimSchema })

export const ReportNewFindingSchema = ReportFindingSchema.extend({
  memoryHeld: PreviousClaimSchema.optional().describe(
    'A claim memory held about the same thing that the run could neither confirm nor tell apart from this one ' +
      '(it may restate it, or reverse it in words the rules cannot read): shown so a reader can judge.',
  ),
})

export const ReportDeltaSchema = z.object({
  baseline: z.boolean().describe('True on the first run of a topic (or after memory expired): everything is new.'),
  since: timestamp().nullable().describe('When memory was last saved before this run; null on a baseline.'),
  newFindings: z.array(ReportNewFindingSchema).describe('Claims memory held nothing about (all claims on a baseline).'),
  updated: z.array(ReportChangeSchema).describe('Same subject as a claim in memory, another figure or date.'),
  contradicted: z.array(ReportChangeSchema).describe('The opposite of a claim in memory.'),
  confirmed: z.int().describe('Claims memory already held: not reported again.'),
  summary: z.string().describe('Markdown. Says plainly when nothing is new.'),
})

export const ReportIntegritySchema = z
  .object({
    claims: z.int().describe('Claims the synthesis made.'),
    shown: z.int(),
    droppedUnsupported: z.int().describe('Not shown: the quote is on no page read, or a figure is not in it.'),
    recited: z.int().describe('Shown with the page that holds the quote instead of the one the model cited.'),
    ownWords: z
      .int()
      .describe("Worded with a figure or stance the quote does not state, so shown in the page's own words."),
    offTopic: z
      .int()
      .describe("Not shown: every page it cites is about something else (holds under half of the topic's words)."),
  })
  .describe('Every shown claim has its quote on a cited page; this counts the rest.')

/** What a document of the local corpus is: an invented sample article, or one indexed on this server. */
export const CorpusKindSchema = z.enum(['sample', 'local'])

export const ReportSourceSchema = z.object({
  n: z.int(),
  url: z.string(),
  title: z.string(),
  publishedAt: z.string().describe('When the page was published, as the source dates it.').nullable(),
  snippet: z.string().describe('The words of this page that support the first claim citing it.'),
  corpus: CorpusKindSchema.optional().describe(
    'Set for a document of the local corpus, not a web page: `sample` for an invented sample article bundled with Sextant, `local` for one indexed on this server. Its `url` is its page on this server.',
  ),
})

export const GeneratedWithSchema = z.object({
  synthesis: z.string(),
  synthesisKind: z.enum(['model', 'extractive']),
  search: z
    .string()
    .describe('What was searched, in words: for the local corpus, what it is and that it is not the web.'),
  plan: z.enum(['model', 'fallback']),
  corpus: CorpusKindSchema.optional().describe(
    'Set when the run searched the local corpus, not the web: `sample` when it found the invented sample articles bundled with Sextant.',
  ),
  offlineFallback: z
    .boolean()
    .optional()
    .describe('True when no web source could be reached, so the local corpus answered instead.'),
  judge: z
    .enum(['model', 'rules'])
    .optional()
    .describe(
      'What compared the claims with memory: `model`, the model as judge (the rules overrule it only on proof), or `rules` alone (no model, or its budget spent). Absent on reports stored before it was recorded.',
    ),
})

export const ReportUsageSchema = z.object({
  inputTokens: z.int(),
  outputTokens: z.int(),
  searchCalls: z.int(),
  costDollars: z.number().nullable(),
  charactersRead: z
    .int()
    .optional()
    .describe('Characters of page text given to the model: the passages that matter to the brief.'),
  charactersAvailable: z.int().optional().describe('Characters of page text the searches returned.'),
})

export const ReportBudgetSchema = z.object({
  maxTokens: z.int().nullable(),
  maxCostDollars: z.number().nullable(),
  reached: z.boolean().describe('The budget stopped some of the work.'),
  leftOut: z.array(z.string()).describe('What the budget left out, e.g. "the follow-up round".'),
})

export const ReportSchema = z.object({
  summary: z
    .string()
    .describe('Markdown in the requested style, led by what changed; citations [n] point into `sources`.'),
  delta: ReportDeltaSchema,
  integrity: ReportIntegritySchema,
  sources: z.array(ReportSourceSchema).describe('Only sources read in this run, numbered as the citations use them.'),
  generatedWith: GeneratedWithSchema,
  notice: z
    .string()
    .optional()
    .describe('Present when the sources are not from the web (the local corpus): show it with the report.'),
  usage: ReportUsageSchema,
  budget: ReportBudgetSchema.optional().describe(
    "Present when the run had a budget (the brief's maxTokens / maxCostDollars, or RUN_MAX_TOKENS).",
  ),
})

export type Report = z.infer<typeof ReportSchema>

const StoredPreviousSchema = PreviousClaimSchema.extend({ seenAt: z.string() })
const StoredChangeSchema = ReportChangeSchema.extend({ previous: StoredPreviousSchema })

/**
 * A report as runs stored it, read back: today's report where every version wrote the same, optional
 * where an older one wrote less (before claims had quotes; before updated, contradicted and
 * confirmed; before integrity and its later counts), and times as the text they were stored as. It
 * is checked for its shape, not re-judged; upgradeReport (server/research/report-types.ts) reads it
 * into today's report.
 */
export const StoredReportSchema = ReportSchema.extend({
  delta: ReportDeltaSchema.extend({
    since: z.string().nullable(),
    newFindings: z
      .array(
        ReportNewFindingSchema.extend({ quote: z.string().optional(), memoryHeld: StoredPreviousSchema.optional() }),
      )
      .optional(),
    updated: z.array(StoredChangeSchema).optional(),
    contradicted: z.array(StoredChangeSchema).optional(),
    confirmed: z.number().optional(),
  }).optional(),
  integrity: ReportIntegritySchema.extend({
    ownWords: z.number().optional(),
    offTopic: z.number().optional(),
  }).optional(),
})

export type StoredReport = z.infer<typeof StoredReportSchema>
export type CorpusKind = z.infer<typeof CorpusKindSchema>
export type ReportFinding = z.infer<typeof ReportFindingSchema>
export type ReportNewFinding = z.infer<typeof ReportNewFindingSchema>
export type PreviousClaim = z.infer<typeof PreviousClaimSchema>
export type ReportChange = z.infer<typeof ReportChangeSchema>
export type ReportDelta = z.infer<typeof ReportDeltaSchema>
export type ReportSource = z.infer<typeof ReportSourceSchema>
export type ReportBudget = z.infer<typeof ReportBudgetSchema>
