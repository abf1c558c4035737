// A mention becomes a brief: the words are the topic, `key:value` words are options. Slack and GitHub
// differ only in how the mention is written; the brief is checked by the one BriefSchema, and what it
// refuses comes back as a reply the person can act on.
import { type Brief, type BriefInput, BriefSchema } from '#server/vocabulary/brief.ts'
import { readBudgetNumber } from '#server/vocabulary/budget.ts'
import type { ChatChannel } from '#server/vocabulary/notify.ts'

export const MENTION_USAGE =
  '<topic> [depth:quick|deep] [style:executive|bullet|memo|framework] [framework:<id>] [timeframe:7d|30d|90d|all] [recurring] [every:1h-30d] [cron:"0 9 * * 1"] [tz:Europe/Berlin] [notify:changes|always] [max-tokens:<1000-10000000>] [max-cost:<0.01-1000>]'

const OPTIONS = {
  depth: 'depth',
  style: 'reportStyle',
  framework: 'frameworkId',
  timeframe: 'timeframe',
  recurring: 'recurring',
  every: 'every',
  cron: 'cron',
  tz: 'timeZone',
  notify: 'notify',
  'max-tokens': 'maxTokens',
  'max-cost': 'maxCostDollars',
} as const
type OptionName = keyof typeof OPTIONS
const OPTION_OF_FIELD = Object.fromEntries(Object.entries(OPTIONS).map(([option, field]) => [field, option]))

// A value with spaces (a cron expression) is quoted: cron:"0 9 * * 1" (Slack may curl the quotes).
const OPTION_TOKEN =
  /^(depth|style|framework|timeframe|recurring|every|cron|tz|notify|max-tokens|max-cost):("[^"]*"|“[^”]*”|\S+)$/i
const TOKENS = /[^\s:]+:(?:"[^"]*"|“[^”]*”)|\S+/g
const YES = new Set(['true', 'yes', 'on', '1'])
const NO = new Set(['false', 'no', 'off', '0'])

export type MentionBrief = { ok: true; brief: Brief } | { ok: false; message: string }

/** Parses "<topic> [options]". Options go anywhere; a bare "recurring" only at the end, so "recurring revenue" stays a topic. */
export function briefFromMention(text: string, source: ChatChannel): MentionBrief {
  const tokens = text.trim().match(TOKENS) ?? []
  const options: Partial<Record<OptionName, string>> = {}
  const topicWords: string[] = []
  let trailing = tokens.length
  while (trailing > 0 && isOptionToken(tokens[trailing - 1] as string)) trailing -= 1
  tokens.forEach((token, index) => {
    const match = OPTION_TOKEN.exec(token)
    if (match) options[(match[1] as string).toLowerCase() as OptionName] = unquote(match[2] as string)
    else if (index >= trailing && token.toLowerCase() === 'recurring') options.recurring = 'true'
    else topicWords.push(token)
  })
  const topic = topicWords.join(' ')
  if (!topic) return { ok: false, message: `Tell me what to research: ${MENTION_USAGE}` }

  const input: BriefInput = { topic, source }
  if (options.depth) input.depth = options.depth.toLowerCase() as BriefInput['depth']
  if (options.style) input.reportStyle = options.style.toLowerCase() as BriefInput['reportStyle']
  if (options.framework) input.frameworkId = options.framework.toLowerCase()
  if (options.timeframe) input.timeframe = options.timeframe.toLowerCase() as BriefInput['timeframe']
  // Text that reads as no number goes to the schema as it is, which refuses it with the range.
  if (options['max-tokens']) input.maxTokens = readBudgetNumber(options['max-tokens']) as number
  if (options['max-cost']) input.maxCostDollars = readBudgetNumber(options['max-cost']) as number
  if (options.every) input.every = options.every
  if (options.cron) input.cron = options.cron
  if (options.tz) input.timeZone = options.tz
  if (options.notify) input.notify = options.notify.toLowerCase() as BriefInput['notify']
  // Saying how often is asking for a recurring brief.
  if (options.every || options.cron) input.recurring = true
  if (options.recurring !== undefined) {
    const value = options.recurring.toLowerCase()
    if (!YES.has(value) && !NO.has(value)) {
      return { ok: false, message: `recurring: use "recurring" or "recurring:false" (got "${options.recurring}").` }
    }
    input.recurring = YES.has(value)
  }
  const result = BriefSchema.safeParse(input)
  if (result.success) return { ok: true, brief: result.data }
  const problems = result.error.issues.map((issue) => {
    const field = String(issue.path[0] ?? 'topic')
    const option = OPTION_OF_FIELD[field] ?? field
    const given = options[option as OptionName]
    return `${option}: ${issue.message}${given ? ` (got "${given}")` : ''}`
  })
  return { ok: false, message: `${problems.join('\n')}\nUsage: ${MENTION_USAGE}` }
}

function unquote(value: string): string {
  return /^(".*"|“.*”)$/.test(value) ? value.slice(1, -1) : value
}

function isOptionToken(token: string): boolean {
  return OPTION_TOKEN.test(token) || token.toLowerCase() === 'recurring'
}

/**
 * The text of a Slack app_mention without the mention of the app, with Slack's markup undone:
 * `<@U1>` and `<@U1|ada>` become @U1 and @ada, `<https://x|label>` its label, `<#C1|general>` #general.
 */
export function slackMentionText(text: string): string {
  return text
    .replace(/^\s*(<@[A-Z0-9]+(\|[^>]*)?>\s*)+/, '')
    .replace(/<([@#!])[A-Za-z0-9^]+\|([^>]*)>/g, (_, sigil: string, label: string) =>
      sigil === '!' ? `@${label}` : `${sigil}${label}`,
    )
    .replace(/<([@#])([A-Za-z0-9]+)>/g, '$1$2')
    .replace(/<!([a-z]+)>/g, '@$1')
    .replace(/<([^<>|]+)\|([^<>]*)>/g, '$2')
    .replace(/<([^<>]+)>/g, '$1')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')
    .trim()
}

/** The text after "@sextant research" in a comment, or undefined when no line (outside quotes) asks. */
export function githubMentionText(body: string, handle = 'sextant'): string | undefined {
  const pattern = new RegExp(`@${handle}(?![\\w-])\\s+research\\b(.*)$`, 'i')
  for (const line of body.split(/\r?\n/)) {
    if (/^\s*>/.test(line)) continue // quoting an earlier request does not repeat it
    const match = pattern.exec(line)
    if (match) return (match[1] as string).trim()
  }
  return undefined
}
