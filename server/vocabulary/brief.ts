// The research brief of spec 2.1: one set of fields for every surface (REST, MCP, Slack, GitHub,
// dashboard, trial, schedule); API and MCP clients parse with ClientBriefSchema, which keeps the
// server's own sources to the server. Unknown fields are refused, so a typo does not silently fall
// back to a default.
import { z } from 'zod'
import { stripBidiControls } from '#server/text/bidi.ts'
import { CostBudgetSchema, TokenBudgetSchema } from '#server/vocabulary/budget.ts'
import { isTimeZone, parseEvery } from '#server/vocabulary/cadence.ts'
import { findFramework } from '#server/vocabulary/frameworks/index.ts'
import { BRIEF_SOURCES, CLIENT_BRIEF_SOURCES } from '#server/vocabulary/runs.ts'
import type { Same } from '#server/vocabulary/same-type.ts'
import { SERIES_NOTIFY } from '#server/vocabulary/series.ts'
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '#server/vocabulary/storable-text.ts'
import { TopicSchema } from '#server/vocabulary/topic.ts'

const DEPTHS = ['quick', 'deep'] as const
const TIMEFRAMES = ['7d', '30d', '90d', 'all'] as const
const REPORT_STYLES = ['executive', 'bullet', 'memo', 'framework'] as const

const briefFields = {
  topic: TopicSchema.describe('The research topic, at most 500 characters.'),
  objective: z
    .string()
    .overwrite(stripBidiControls)
    .trim()
    .min(1)
    .max(2000)
    .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
    .optional()
    .describe('What to learn, or which angle to take.'),
  focus: z
    .string()
    .overwrite(stripBidiControls)
    .trim()
    .min(1)
    .max(1000)
    .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
    .optional()
    .describe('Comma-separated priority areas.'),
  depth: z
    .enum(DEPTHS)
    .default('deep')
    .describe('quick: about 3 queries, aims for 45 s; deep: about 6 queries and a follow-up round, aims for 90 s.'),
  timeframe: z.enum(TIMEFRAMES).default('30d').describe('Only sources published in this window.'),
  reportStyle: z.enum(REPORT_STYLES).default('executive').describe('The shape of the report.'),
  recurring: z
    .boolean()
    .default(false)
    .describe('When true, the brief runs again: every 7 days, or as `every` or `cron` say.'),
  every: z
    .string()
    .max(20)
    .refine((text) => parseEvery(text) !== undefined, 'must be a duration like 6h, 1d or 30d')
    .optional()
    .describe('With recurring: how long between runs, from 1h to 30d, e.g. "6h", "1d", "30d". Default 7d.'),
  cron: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
    .optional()
    .describe(
      'With recurring, instead of every: a cron expression (minute hour day month weekday), e.g. "0 9 * * 1" ' +
        'for Mondays at 9:00, in timeZone. Runs must be 1h to 30d apart.',
    ),
  timeZone: z
    .string()
    .max(64)
    .refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin')
    .optional()
    .describe('The time zone cron is read in (IANA, e.g. Europe/Berlin). Default UTC.'),
  notify: z
    .enum(SERIES_NOTIFY)
    .optional()
    .describe(
      'With recurring: "changes" (the default) delivers a run only when its delta has something new, updated ' +
        'or contradicted; "always" delivers every run.',
    ),
  frameworkId: z
    .string()
    .refine((id) => findFramework(id) !== undefined, {
      error: 'unknown framework: list them with GET /api/frameworks',
    })
    .optional()
    .describe('A research framework to structure the plan and the report, e.g. pestle.'),
  maxTokens: TokenBudgetSchema.optional().describe(
    'A token budget for the whole run: model tokens, prompt and completion, from 1,000 to 10,000,000. ' +
      'A run that reaches it stops spending and reports with what it has, saying so. ' +
      'Without it, the server default applies, if one is set.',
  ),
  maxCostDollars: CostBudgetSchema.optional().describe(
    'A cost budget for the whole run in US dollars, from 0.01 to 1,000 in whole cents: search calls at what the ' +
      'search provider reports, plus model tokens when the server has their prices. ' +
      'A run that reaches it stops spending and reports with what it has, saying so.',
  ),
  webhookUrl: z
    .string()
    .trim()
    .max(2000)
    .refine(isHttpUrl, 'must be an https URL')
    .optional()
    .describe(
      "Where to POST this run's webhook events (run.completed or run.failed; series.changed), signed under the " +
        "Standard Webhooks scheme with your account's signing secret (GET /api/webhooks/secret). https, at a " +
        'public address only: a private, loopback, link-local or metadata address is refused.',
    ),
  source: z.enum(BRIEF_SOURCES).default('api').describe('Where the brief came from.'),
}

type Refinable = {
  reportStyle: string
  frameworkId?: string
  recurring: boolean
  every?: string
  cron?: string
  timeZone?: string
  notify?: string
}

function consistent(brief: Refinable, context: z.RefinementCtx) {
  if (brief.reportStyle === 'framework' && !brief.frameworkId) {
    context.addIssue({
      code: 'custom',
      path: ['frameworkId'],
      message: 'reportStyle "framework" needs a frameworkId: list them with GET /api/frameworks',
    })
  }
  for (const field of ['every', 'cron', 'timeZone', 'notify'] as const) {
    if (brief[field] !== undefined && !brief.recurring) {
      context.addIssue({
        code: 'custom',
        path: [field],
        message: `${field} says how a recurring brief repeats: add "recurring": true`,
      })
    }
  }
  if (brief.every !== undefined && brief.cron !== undefined) {
    context.addIssue({ code: 'custom', path: ['cron'], message: 'give every or cron, not both' })
  }
  if (brief.timeZone !== undefined && brief.cron === undefined) {
    context.addIssue({ code: 'custom', path: ['timeZone'], message: 'timeZone is the zone cron is read in: add cron' })
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text)
    return protocol === 'https:' || protocol === 'http:'
  } catch {
    return false
  }
}

/** A brief from any surface, as runs and series store it. */
export const BriefSchema = z.strictObject(briefFields).superRefine(consistent)

/**
 * A brief as an API or MCP client sends it: `source` may only claim a direct call. Slack, GitHub,
 * the trial page and the schedule are set by the server, so a client cannot pass for them.
 */
export const ClientBriefSchema = z
  .strictObject({
    ...briefFields,
    source: z
      .enum(CLIENT_BRIEF_SOURCES, {
        error: `source must be one of ${CLIENT_BRIEF_SOURCES.join(', ')}: slack, github, trial and schedule are set by Sextant itself`,
      })
      .default('api')
      .describe(`Where the brief came from: ${CLIENT_BRIEF_SOURCES.join(', ')}.`),
  })
  .superRefine(consistent)

export type Brief = z.infer<typeof BriefSchema>
export type BriefInput = z.input<typeof BriefSchema>

/**
 * A brief as runs and series stored it, read back: its shape, not today's rules for a new one. A
 * brief is judged once, when it comes in; one stored under older rules (a cron since refused, a
 * framework since withdrawn, a topic longer than today's cap) still opens as it was stored, and a
 * field added since takes its default. Fields of older versions that no longer exist are dropped.
 * Its output is a Brief (checked below), so a field added to the brief must be added here.
 */
export const StoredBriefSchema = z.object({
  topic: z.string(),
  objective: z.string().optional(),
  focus: z.string().optional(),
  depth: z.enum(DEPTHS).default('deep'),
  timeframe: z.enum(TIMEFRAMES).default('30d'),
  reportStyle: z.enum(REPORT_STYLES).default('executive'),
  recurring: z.boolean().default(false),
  every: z.string().optional(),
  cron: z.string().optional(),
  timeZone: z.string().optional(),
  notify: z.enum(SERIES_NOTIFY).optional(),
  frameworkId: z.string().optional(),
  maxTokens: z.number().optional(),
  maxCostDollars: z.number().optional(),
  webhookUrl: z.string().optional(),
  source: z.enum(BRIEF_SOURCES).default('api'),
})

// A field of one missing from the other fails tsc.
const storedIsBrief: Same<z.output<typeof StoredBriefSchema>, Brief> = true
void storedIsBrief

/**
 * A stored brief as it is shown. The schema strips bidirectional controls from what people type;
 * briefs stored before it did still hold them, so every view of a brief goes through here.
 */
export function displayBrief(brief: Brief): Brief {
  const shown: Brief = { ...brief, topic: stripBidiControls(brief.topic) }
  if (brief.objective !== undefined) shown.objective = stripBidiControls(brief.objective)
  if (brief.focus !== undefined) shown.focus = stripBidiControls(brief.focus)
  return shown
}

const TIMEFRAME_DAYS = { '7d': 7, '30d': 30, '90d': 90 } as const

/** The earliest publication date a run searches, or undefined for "all". */
export function startPublishedDate(timeframe: Brief['timeframe'], now: Date): string | undefined {
  if (timeframe === 'all') return undefined
  return new Date(now.getTime() - TIMEFRAME_DAYS[timeframe] * 86_400_000).toISOString().slice(0, 10)
}

export function timeframePhrase(timeframe: Brief['timeframe']): string {
  return timeframe === 'all' ? 'any time' : `the last ${TIMEFRAME_DAYS[timeframe]} days`
}

export function focusAreas(brief: Pick<Brief, 'focus'>): string[] {
  return (brief.focus ?? '')
    .split(',')
    .map((area) => area.trim())
    .filter(Boolean)
}
