// A run's budget: the most model tokens (a brief's `maxTokens`, else RUN_MAX_TOKENS) and dollars (a
// brief's `maxCostDollars`: the search provider's reported cost, plus model tokens when prices are
// configured) it may spend. The engine asks before each paid step what is left, and a step that would
// not fit is made smaller (fewer pages read) or left out (the follow-up round, the model's report, the
// claim judge); the run finishes with what it has and its report says what the budget left out.
import { countTokens } from 'gpt-tokenizer'
import type { Usage } from '#server/providers/types.ts'

export type Prices = { inputPerMillion: number; outputPerMillion: number }

export type Budget = { maxTokens?: number; maxCostDollars?: number; prices?: Prices }

export type Spent = { inputTokens: number; outputTokens: number; searchDollars: number }

/** Characters of text per prompt token when there is no text to measure (about 4 in English). */
export const CHARACTERS_PER_TOKEN = 4
/** The most text measured for the estimate: a sample, spread over the pages, not all of them. */
const SAMPLE_CHARACTERS = 8000

/**
 * Characters per token of these pages, as OpenAI's current tokenizer (o200k, gpt-tokenizer) cuts them:
 * about 4 in English and near 1 in Chinese or Japanese, where a budget that assumed 4 spent half as
 * much again as it allowed (issue 41, item 6). A sample of each page, up to SAMPLE_CHARACTERS in all.
 */
export function charactersPerToken(texts: readonly string[]): number {
  const pages = texts.filter((text) => text.length > 0)
  if (pages.length === 0) return CHARACTERS_PER_TOKEN
  const each = Math.max(200, Math.floor(SAMPLE_CHARACTERS / pages.length))
  const sample = pages.map((text) => text.slice(0, each)).join('\n')
  return Math.min(CHARACTERS_PER_TOKEN * 1.5, Math.max(0.5, sample.length / Math.max(1, countTokens(sample))))
}

/** Whether the run spent past its budget (an answer longer than asked for, a dense script). */
export function budgetPassed(budget: Budget, spent: Spent): boolean {
  const tokens = spent.inputTokens + spent.outputTokens
  if (budget.maxTokens !== undefined && tokens > budget.maxTokens) return true
  return budget.maxCostDollars !== undefined && dollarsOf(spent, budget.prices) > budget.maxCostDollars
}

export function spentOf(usages: Usage[], searchDollars: number): Spent {
  return {
    inputTokens: usages.reduce((sum, usage) => sum + usage.inputTokens, 0),
    outputTokens: usages.reduce((sum, usage) => sum + usage.outputTokens, 0),
    searchDollars,
  }
}

/** Dollars spent: what search reported, and model tokens at the configured prices (else not counted). */
export function dollarsOf(spent: Spent, prices: Prices | undefined): number {
  const model = prices
    ? (spent.inputTokens * prices.inputPerMillion + spent.outputTokens * prices.outputPerMillion) / 1e6
    : 0
  return spent.searchDollars + model
}

/**
 * Model tokens still to spend: the token budget's remainder, or the dollar budget's converted at the
 * dearer of the two prices, whichever is smaller. Infinity when neither limits the model.
 */
export function tokensLeft(budget: Budget, spent: Spent): number {
  let left = Number.POSITIVE_INFINITY
  if (budget.maxTokens !== undefined) left = budget.maxTokens - spent.inputTokens - spent.outputTokens
  const dearest = budget.prices ? Math.max(budget.prices.inputPerMillion, budget.prices.outputPerMillion) : 0
  if (budget.maxCostDollars !== undefined && dearest > 0) {
    left = Math.min(left, ((budget.maxCostDollars - dollarsOf(spent, budget.prices)) * 1e6) / dearest)
  }
  return Math.max(0, Math.floor(left))
}

/** Whether a search may still be paid for: the dollar budget is not used up. */
export function searchAllowed(budget: Budget, spent: Spent): boolean {
  return budget.maxCostDollars === undefined || dollarsOf(spent, budget.prices) < budget.maxCostDollars
}

/**
 * The characters of pages a synthesis may read with `left` tokens: what is left once its answer
 * (`outputTokens`), its fixed prompt (`overheadTokens`) and a reserve for matching claims afterwards
 * are set aside, at the pages' own characters per token. Infinity when the budget does not limit it.
 */
export function readableCharacters(
  left: number,
  outputTokens: number,
  overheadTokens: number,
  perToken = CHARACTERS_PER_TOKEN,
): number {
  if (!Number.isFinite(left)) return Number.POSITIVE_INFINITY
  const reserve = Math.min(4000, Math.ceil(left * 0.15))
  return Math.max(0, Math.floor((left - outputTokens - overheadTokens - reserve) * perToken))
}
