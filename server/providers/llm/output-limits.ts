// How many tokens each model call may write. Every call is capped, so a model that rambles or
// loops costs a known amount; the limits sit well above what a good answer needs, because an answer
// cut off at the limit is unusable and its tokens are spent for nothing.
import type { Depth } from '#server/providers/types.ts'

/** A plan is at most about ten queries of under 20 words each. */
export const PLAN_MAX_OUTPUT_TOKENS = 800

/** Findings with their quotes, sections or implications, and gaps, from up to 24 k (quick) or 120 k characters (deep) of passages. */
export const SYNTHESIS_MAX_OUTPUT_TOKENS: Record<Depth, number> = { quick: 3000, deep: 6000 }

/** A verdict is about 20 tokens of JSON; twice that per claim, plus the envelope, up to a cap. */
export const JUDGE_BASE_OUTPUT_TOKENS = 256
export const JUDGE_OUTPUT_TOKENS_PER_CLAIM = 48
export const JUDGE_MAX_OUTPUT_TOKENS = 4096

export function judgeMaxOutputTokens(claims: number): number {
  return Math.min(JUDGE_MAX_OUTPUT_TOKENS, JUDGE_BASE_OUTPUT_TOKENS + JUDGE_OUTPUT_TOKENS_PER_CLAIM * claims)
}

/**
 * The request field that carries the limit. OpenAI deprecated `max_tokens` for
 * `max_completion_tokens`, and its reasoning models (o-series, gpt-5) refuse `max_tokens` with a
 * 400; but Ollama reads only `max_tokens` (it ignores the other, so nothing would be capped), and
 * vLLM, llama.cpp and LM Studio read it too. So OpenAI's own endpoints get the new name, and every
 * other server the old one.
 */
export function tokenLimitParameter(baseUrl: string | undefined): 'max_completion_tokens' | 'max_tokens' {
  if (!baseUrl) return 'max_completion_tokens'
  const host = URL.parse(baseUrl)?.hostname.toLowerCase() ?? ''
  return host === 'api.openai.com' || host.endsWith('.openai.azure.com') ? 'max_completion_tokens' : 'max_tokens'
}
