// The report a complete run returns, as zod: the one description REST (the OpenAPI document) and MCP
// (get_run_report's output schema) both use. tsc holds it to the Report type (see openapi.ts).
import { z } from 'zod'

const timestamp = () => z.iso.datetime()

const FindingSchema = z.object({
  text: z.string(),
  quote: z.string().describe('Words of the cited pages, verbatim, that support the claim.'),
  sources: z.array(z.int()).describe('The `n` of each source whose text holds the quote.'),
})
const ChangeSchema = FindingSchema.extend({
  previous: z
    .object({
      text: z.string(),
      seenAt: timestamp().describe('When a run last found the previous claim.'),
      urls: z.array(z.string()),
    })
    .describe('What memory held before this run.'),
})

export const ReportSchema = z.object({
  summary: z
    .string()
    .describe('Markdown in the requested style, led by what changed; citations [n] point into `sources`.'),
  delta: z.object({
    baseline: z.boolean().describe('True on the first run of a topic (or after memory expired): everything is new.'),
    since: timestamp().nullable().describe('When memory was last saved before this run; null on a baseline.'),
    newFindings: z.array(FindingSchema).describe('Claims memory held nothing about (all claims on a baseline).'),
    updated: z.array(ChangeSchema).describe('Same subject as a claim in memory, another figure or date.'),
    contradicted: z.array(ChangeSchema).describe('The opposite of a claim in memory.'),
    confirmed: z.int().describe('Claims memory already held: not reported again.'),
    summary: z.string().describe('Markdown. Says plainly when nothing is new.'),
  }),
  integrity: z
    .object({
      claims: z.int().describe('Claims the synthesis made.'),
      shown: z.int(),
      droppedUnsupported: z.int().describe('Not shown: the quote is on no page read, or a figure is not in it.'),
      recited: z.int().describe('Shown with the page that holds the quote instead of the one the model cited.'),
      ownWords: z
        .int()
        .describe("Worded with a figure or stance the quote does not state, so shown in the page's own words."),
    })
    .describe('Every shown claim has its quote on a cited page; this counts the rest.'),
  sources: z
    .array(
      z.object({
        n: z.int(),
        url: z.string(),
        title: z.string(),
        publishedAt: z.string().nullable(),
        snippet: z.string().describe('The words of this page that support the first claim citing it.'),
        corpus: z
          .enum(['sample', 'local'])
          .optional()
          .describe(
            'Set for a document of the local corpus, not a web page: `sample` for an invented sample article bundled with Sextant, `local` for one indexed on this server. Its `url` is its page on this server.',
          ),
      }),
    )
    .describe('Only sources read in this run, numbered as the citations use them.'),
  generatedWith: z.object({
    synthesis: z.string(),
    synthesisKind: z.enum(['model', 'extractive']),
    search: z
      .string()
      .describe('What was searched, in words: for the local corpus, what it is and that it is not the web.'),
    plan: z.enum(['model', 'fallback']),
    corpus: z
      .enum(['sample', 'local'])
      .optional()
      .describe(
        'Set when the run searched the local corpus, not the web: `sample` when it found the invented sample articles bundled with Sextant.',
      ),
    offlineFallback: z
      .boolean()
      .optional()
      .describe('True when no web source could be reached, so the local corpus answered instead.'),
  }),
  notice: z
    .string()
    .optional()
    .describe('Present when the sources are not from the web (the local corpus): show it with the report.'),
  usage: z.object({
    inputTokens: z.int(),
    outputTokens: z.int(),
    searchCalls: z.int(),
    costDollars: z.number().nullable(),
    charactersRead: z
      .int()
      .optional()
      .describe('Characters of page text given to the model: the passages that matter to the brief.'),
    charactersAvailable: z.int().optional().describe('Characters of page text the searches returned.'),
  }),
  budget: z
    .object({
      maxTokens: z.int().nullable(),
      maxCostDollars: z.number().nullable(),
      reached: z.boolean().describe('The budget stopped some of the work.'),
      leftOut: z.array(z.string()).describe('What the budget left out, e.g. "the follow-up round".'),
    })
    .optional()
    .describe("Present when the run had a budget (the brief's maxTokens / maxCostDollars, or RUN_MAX_TOKENS)."),
})
