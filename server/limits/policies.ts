// The limits of spec section 8 (research runs per client IP, MCP calls, demo key uses per client
// IP), and the ones that keep them from being multiplied: MCP calls per account, runs started by
// Slack and GitHub mentions, failed logins. Numbers come from config; nothing here reads the environment.
import type pg from 'pg'
import type { Config } from '#server/config.ts'
import { createLimiter, type Limiter, type LimitPolicy } from '#server/limits/limiter.ts'
import type { Logger } from '#server/logger.ts'

export type Limits = {
  /** Research runs per client address, every surface with one (spec 8). */
  runs: Limiter
  /** MCP tool calls per API key (spec 8). */
  mcp: Limiter
  /** MCP tool calls per account, all its keys together: minting keys does not multiply the allowance. */
  mcpAccount: Limiter
  /** Runs the demo key or the trial page start, per client address per day (spec 8). */
  demo: Limiter
  /** Runs started by mentions, per Slack workspace or GitHub repository. */
  mentions: Limiter
  /** Runs started by mentions, per account, all its workspaces and repositories together. */
  mentionsAccount: Limiter
  /** Failed logins (and sign-ups) per client address. */
  loginAddress: Limiter
  /** Failed logins per account (the email asked for, whether or not it exists). */
  loginAccount: Limiter
  /**
   * Failed logins from a device that logged in to the account before (its signed cookie): counted
   * instead of the address's and the account's, so strangers' guesses cannot lock its owner out.
   */
  loginDevice: Limiter
  /** Confirmation emails an account has mailed, to any addresses. */
  confirmationsAccount: Limiter
  /**
   * Confirmation emails mailed to one address, from any accounts: kept apart from the address's row,
   * so removing and adding it again does not start the count again.
   */
  confirmationsAddress: Limiter
}

export type LimitSettings = Pick<
  Config,
  | 'RATE_LIMIT_RUNS_PER_HOUR'
  | 'RATE_LIMIT_MCP_PER_HOUR'
  | 'RATE_LIMIT_MCP_PER_ACCOUNT_PER_HOUR'
  | 'RATE_LIMIT_DEMO_PER_DAY'
  | 'RATE_LIMIT_MENTIONS_PER_HOUR'
  | 'RATE_LIMIT_MENTIONS_PER_ACCOUNT_PER_HOUR'
  | 'RATE_LIMIT_LOGIN_FAILURES_PER_HOUR'
  | 'RATE_LIMIT_CONFIRMATIONS_PER_ACCOUNT_PER_HOUR'
  | 'RATE_LIMIT_CONFIRMATIONS_PER_ADDRESS_PER_DAY'
>

const HOUR = 3600
const DAY = 24 * HOUR

/** The policies, by the name rate_limits keys and the 429 problem's `limit` carry. */
export function limitPolicies(settings: LimitSettings): Record<keyof Limits, LimitPolicy> {
  const runs = settings.RATE_LIMIT_RUNS_PER_HOUR
  const mcp = settings.RATE_LIMIT_MCP_PER_HOUR
  const mcpAccount = settings.RATE_LIMIT_MCP_PER_ACCOUNT_PER_HOUR
  const demo = settings.RATE_LIMIT_DEMO_PER_DAY
  const mentions = settings.RATE_LIMIT_MENTIONS_PER_HOUR
  const mentionsAccount = settings.RATE_LIMIT_MENTIONS_PER_ACCOUNT_PER_HOUR
  const logins = settings.RATE_LIMIT_LOGIN_FAILURES_PER_HOUR
  const confirmations = settings.RATE_LIMIT_CONFIRMATIONS_PER_ACCOUNT_PER_HOUR
  const toOneAddress = settings.RATE_LIMIT_CONFIRMATIONS_PER_ADDRESS_PER_DAY
  return {
    runs: {
      name: 'runs',
      limit: runs,
      windowSeconds: HOUR,
      description: `You can start ${count(runs, 'research run')} per hour from one address.`,
      setting: 'RATE_LIMIT_RUNS_PER_HOUR',
    },
    mcp: {
      name: 'mcp',
      limit: mcp,
      windowSeconds: HOUR,
      description: `You can make ${count(mcp, 'MCP tool call')} per hour with one API key.`,
      setting: 'RATE_LIMIT_MCP_PER_HOUR',
    },
    mcpAccount: {
      name: 'mcp-account',
      limit: mcpAccount,
      windowSeconds: HOUR,
      description: `An account can make ${count(mcpAccount, 'MCP tool call')} per hour, all its API keys together (with the demo key: from one address).`,
      setting: 'RATE_LIMIT_MCP_PER_ACCOUNT_PER_HOUR',
    },
    demo: {
      name: 'demo',
      limit: demo,
      windowSeconds: DAY,
      description: `You can use the demo key ${count(demo, 'time')} per day from one address.`,
      setting: 'RATE_LIMIT_DEMO_PER_DAY',
    },
    mentions: {
      name: 'mentions',
      limit: mentions,
      windowSeconds: HOUR,
      description: `A Slack workspace or GitHub repository can start ${count(mentions, 'research run')} per hour.`,
      setting: 'RATE_LIMIT_MENTIONS_PER_HOUR',
    },
    mentionsAccount: {
      name: 'mentions-account',
      limit: mentionsAccount,
      windowSeconds: HOUR,
      description: `The Slack workspaces and GitHub repositories of one account can start ${count(mentionsAccount, 'research run')} per hour together.`,
      setting: 'RATE_LIMIT_MENTIONS_PER_ACCOUNT_PER_HOUR',
    },
    loginAddress: {
      name: 'login-address',
      limit: logins,
      windowSeconds: HOUR,
      description: `There were ${count(logins, 'failed sign-in')} from this address in the last hour.`,
      setting: 'RATE_LIMIT_LOGIN_FAILURES_PER_HOUR',
    },
    loginAccount: {
      name: 'login-account',
      limit: logins,
      windowSeconds: HOUR,
      description: `There were ${count(logins, 'failed login')} for this email in the last hour.`,
      setting: 'RATE_LIMIT_LOGIN_FAILURES_PER_HOUR',
    },
    loginDevice: {
      name: 'login-device',
      limit: logins,
      windowSeconds: HOUR,
      description: `There were ${count(logins, 'failed login')} from this device in the last hour.`,
      setting: 'RATE_LIMIT_LOGIN_FAILURES_PER_HOUR',
    },
    confirmationsAccount: {
      name: 'confirmations-account',
      limit: confirmations,
      windowSeconds: HOUR,
      description: `An account can have ${count(confirmations, 'confirmation email')} mailed per hour.`,
      setting: 'RATE_LIMIT_CONFIRMATIONS_PER_ACCOUNT_PER_HOUR',
    },
    confirmationsAddress: {
      name: 'confirmations-address',
      limit: toOneAddress,
      windowSeconds: DAY,
      description: `An address can be mailed ${count(toOneAddress, 'confirmation email')} per day.`,
      setting: 'RATE_LIMIT_CONFIRMATIONS_PER_ADDRESS_PER_DAY',
    },
  }
}

export function createLimits(options: { pool: pg.Pool; settings: LimitSettings; log?: Logger }): Limits {
  const { pool, log } = options
  const policies = limitPolicies(options.settings)
  const limiter = (policy: LimitPolicy) => createLimiter({ pool, log, policy })
  return {
    runs: limiter(policies.runs),
    mcp: limiter(policies.mcp),
    mcpAccount: limiter(policies.mcpAccount),
    demo: limiter(policies.demo),
    mentions: limiter(policies.mentions),
    mentionsAccount: limiter(policies.mentionsAccount),
    loginAddress: limiter(policies.loginAddress),
    loginAccount: limiter(policies.loginAccount),
    loginDevice: limiter(policies.loginDevice),
    confirmationsAccount: limiter(policies.confirmationsAccount),
    confirmationsAddress: limiter(policies.confirmationsAddress),
  }
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}
