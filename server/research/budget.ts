// A run's budget: the most model tokens (a brief's `maxTokens`, else RUN_MAX_TOKENS) and dollars (a
// brief's `maxCostDollars`: the search provider's reported cost, plus model tokens when prices are
// configured) it may spend. The engine asks before each paid step what is left, and a step that would
// not fit is made smaller (fewer pages read) or left out (the follow-up round, the model's report, the
// claim judge); the run finishes with what it has and its report says what the budget left out.
import type { Usage } from '#server/providers/types.ts'

export type Prices = { inputPerMillion: number; outputPerMillion: number }

export type Budget = { maxTokens?: number; maxCostDollars?: number; prices?: Prices }

export type Spent = { inputTokens: number; outputTokens: number; searchDollars: number }

/** Characters of text per prompt token, as a budget estimates it (about 4 in English). */
export const CHARACTERS_PER_TOKEN = 4

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
 * are set aside. Infinity when the budget does not limit it.
 */
export function readableCharacters(left: number, outputTokens: number, overheadTokens: number): number {
  if (!Number.isFinite(left)) return Number.POSITIVE_INFINITY
  const reserve = Math.min(4000, Math.ceil(left * 0.15))
  return Math.max(0, (left - outputTokens - overheadTokens - reserve) * CHARACTERS_PER_TOKEN)
}
