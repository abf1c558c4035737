// What a person may cap a run's spending at: model tokens and dollars. The ranges are shared by
// the brief (every surface), RUN_MAX_TOKENS and the messages, so a refusal names the same range
// everywhere.
import { z } from 'zod'

export const TOKEN_BUDGET = { min: 1_000, max: 10_000_000 } as const
export const COST_BUDGET = { min: 0.01, max: 1_000 } as const

export const TOKEN_BUDGET_MESSAGE = 'must be a whole number of tokens from 1,000 to 10,000,000'
export const COST_BUDGET_MESSAGE = 'must be an amount in dollars from 0.01 to 1,000, in whole cents'

// One message per bad value: the first check that fails stops the others.
const tokenCheck = { error: TOKEN_BUDGET_MESSAGE, abort: true }
const costCheck = { error: COST_BUDGET_MESSAGE, abort: true }

export const TokenBudgetSchema = z
  .number({ error: TOKEN_BUDGET_MESSAGE })
  .int(tokenCheck)
  .min(TOKEN_BUDGET.min, tokenCheck)
  .max(TOKEN_BUDGET.max, tokenCheck)

// Whole cents: a budget finer than a cent is a typo more often than a wish, and says so. Checked
// by hand, not with multipleOf(0.01): in JSON Schema that makes validators refuse 0.29, whose
// binary value is no exact multiple of 0.01, so clients checking against the OpenAPI would too.
export const CostBudgetSchema = z
  .number({ error: COST_BUDGET_MESSAGE })
  .min(COST_BUDGET.min, costCheck)
  .max(COST_BUDGET.max, costCheck)
  .refine(inWholeCents, costCheck)

function inWholeCents(dollars: number): boolean {
  const cents = dollars * 100
  return Math.abs(cents - Math.round(cents)) < 1e-6
}

/**
 * A budget as a person types it in a form or a mention ("50,000", "$0.50"): the number it reads as,
 * or the text itself when it reads as none, so the schema refuses it with the range.
 */
export function readBudgetNumber(text: string): number | string {
  const plain = text
    .trim()
    .replace(/^\$\s*/, '')
    .replace(/[,_\s]/g, '')
  return /^\d+(\.\d+)?$|^\.\d+$/.test(plain) ? Number(plain) : text
}

/** "50,000 tokens and $0.50", or undefined for a brief without a budget. */
export function budgetLimits(brief: { maxTokens?: number; maxCostDollars?: number }): string | undefined {
  const limits = [
    brief.maxTokens === undefined ? undefined : `${brief.maxTokens.toLocaleString('en-US')} tokens`,
    brief.maxCostDollars === undefined ? undefined : formatDollars(brief.maxCostDollars),
  ].filter(Boolean)
  return limits.length > 0 ? limits.join(' and ') : undefined
}

/** "at most 50,000 tokens and $0.50", or undefined for a brief without a budget. */
export function budgetPhrase(brief: { maxTokens?: number; maxCostDollars?: number }): string | undefined {
  const limits = budgetLimits(brief)
  return limits && `at most ${limits}`
}

function formatDollars(dollars: number): string {
  return `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`
}
