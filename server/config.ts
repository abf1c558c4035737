// The one place that reads the environment. Everything else receives a Config.
import path from 'node:path'
import { z } from 'zod'
import { parseKeyRing } from '#server/memory/crypto.ts'
import { parseAllowHosts } from '#server/providers/reader/allow-hosts.ts'
import { TOKEN_BUDGET } from '#server/vocabulary/budget.ts'

const port = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(0, 'must be from 0 to 65535')
  .max(65535, 'must be from 0 to 65535')

const dollarsPerMillion = z.coerce
  .number({ error: 'must be a number of dollars per million tokens' })
  .min(0, 'must be 0 or more dollars per million tokens')
  .max(100_000, 'must be at most 100000 dollars per million tokens')

/** An http(s) base URL, kept without a trailing slash: adapters append their API's path to it. */
function baseUrl(defaultUrl: string) {
  return z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .default(defaultUrl)
    .transform((url) => url.replace(/\/+$/, ''))
}

/** The search providers that exist; SEARCH_PROVIDER must name one of them. */
/** A duration setting ("7d", "12h", "30m", "45s", or seconds), read as seconds. */
function duration(defaultValue: string, options: { zero?: boolean } = {}) {
  return z
    .string()
    .regex(/^\d+(s|m|h|d)?$/, 'must be a duration like 7d, 12h, 30m, 45s (or seconds)')
    .default(defaultValue)
    .transform((value) => {
      const unit = { s: 1, m: 60, h: 3600, d: 86_400 }[value.at(-1) as 's' | 'm' | 'h' | 'd'] ?? 1
      return Number.parseInt(value, 10) * unit
    })
    .refine((seconds) => seconds > 0 || options.zero === true, 'must be longer than 0 seconds')
    .describe('seconds')
}

/** A `host:port,...` list of addresses let past the private-address rules (tests, local development). */
function allowHosts() {
  return z
    .string()
    .transform((spec, context) => {
      try {
        return parseAllowHosts(spec)
      } catch (error) {
        context.addIssue({ code: 'custom', message: `must be host:port,... (${(error as Error).message})` })
        return z.NEVER
      }
    })
    .optional()
}

export const SEARCH_PROVIDERS = ['open', 'exa', 'tavily', 'brave', 'searxng', 'corpus'] as const
export type SearchProviderName = (typeof SEARCH_PROVIDERS)[number]

/**
 * What each keyed (or self-hosted) provider cannot search without. With SEARCH_PROVIDER unset, the
 * first of these whose setting is present is used, in this order (Exa, Tavily, Brave, SearXNG), so
 * a key added for another provider does not silently take over from one already in use.
 */
const PROVIDER_SETTINGS = {
  exa: 'EXA_API_KEY',
  tavily: 'TAVILY_API_KEY',
  brave: 'BRAVE_API_KEY',
  searxng: 'SEARXNG_URL',
} as const satisfies Partial<Record<SearchProviderName, string>>
type KeyedProvider = keyof typeof PROVIDER_SETTINGS

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((value) => ['true', '1', 'yes'].includes(value))

export const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional(),
  DATABASE_POOL_SIZE: z.coerce.number({ error: 'must be a number' }).int().min(2).max(200).default(10),
  // Seconds an idle connection of the app's pool stays open; 0 keeps it until the app stops. Opening
  // one costs a new Postgres backend and SCRAM (about 8 ms and 5 ms of the app's CPU here), which a
  // run after a quiet spell, a monitored topic's usual case, paid for each of its connections.
  DATABASE_POOL_IDLE_SECONDS: z.coerce.number({ error: 'must be a number' }).int().min(0).max(86_400).default(0),
  // Named (prepared) statements: on by default only for the embedded Postgres, since a pooler in
  // transaction mode (PgBouncer before 1.21) cannot keep them.
  DATABASE_PREPARED_STATEMENTS: z.enum(['auto', 'on', 'off']).default('auto'),
  DATA_DIR: z.string().min(1).default('.data'),
  EMBEDDED_PG_PORT: port.default(54329),
  // Extra settings for the embedded Postgres, `name=value` separated by spaces (the bench loads
  // pg_stat_statements with it).
  EMBEDDED_PG_SETTINGS: z
    .string()
    .regex(/^\s*([a-z_.]+=[^\s=]+\s*)*$/, { error: 'must be name=value pairs separated by spaces' })
    .default('')
    .transform((value) => value.split(/\s+/).filter(Boolean)),
  RUN_ROLE: z.enum(['all', 'web', 'worker']).default('all'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BUILD_ON_START: flag.default(true),
  TRUST_PROXY: z.coerce.number({ error: 'must be a number of proxy hops' }).int().min(0).max(10).default(0),
  HTTP_HEADERS_TIMEOUT_SECONDS: z.coerce.number({ error: 'must be a number' }).positive().max(600).default(15),
  HTTP_REQUEST_TIMEOUT_SECONDS: z.coerce.number({ error: 'must be a number' }).positive().max(3600).default(60),
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number({ error: 'must be a number' }).positive().max(600).default(5),
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce
    .number({ error: 'must be a number (0 for no limit)' })
    .int()
    .min(0)
    .max(1_000_000)
    .optional(),
  MAX_EVENT_STREAMS_PER_SESSION: z.coerce.number({ error: 'must be a number' }).int().min(1).max(10_000).default(20),
  LOCAL_DEV_AUTH: flag.optional(),
  DEMO_KEY: z
    .string()
    .regex(
      /^sx_[a-z0-9]{8}_[A-Za-z0-9]{32}$/,
      'must look like sx_<8 lower-case letters or digits>_<32 letters or digits>',
    )
    .optional(),
  EXA_API_KEY: z.string().min(1).optional(),
  EXA_BASE_URL: z.url({ error: 'must be a URL' }).optional(),
  SEARCH_PROVIDER: z.enum(SEARCH_PROVIDERS, { error: `must be one of ${SEARCH_PROVIDERS.join(', ')}` }).optional(),
  TAVILY_API_KEY: z.string().min(1).optional(),
  TAVILY_BASE_URL: baseUrl('https://api.tavily.com'),
  BRAVE_API_KEY: z.string().min(1).optional(),
  BRAVE_BASE_URL: baseUrl('https://api.search.brave.com'),
  // A SearXNG instance (self-hosted, JSON format enabled): there is no public default.
  SEARXNG_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  // The keyless open sources of the `open` provider (server/providers/search/open.ts).
  GDELT_BASE_URL: baseUrl('https://api.gdeltproject.org'),
  WIKIPEDIA_BASE_URL: baseUrl('https://en.wikipedia.org'),
  OPENALEX_BASE_URL: baseUrl('https://api.openalex.org'),
  ARXIV_BASE_URL: baseUrl('https://export.arxiv.org'),
  HN_SEARCH_BASE_URL: baseUrl('https://hn.algolia.com'),
  SEARCH_CONTACT_EMAIL: z.email({ error: 'must be an email address' }).optional(),
  OPENALEX_API_KEY: z.string().min(1).optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url({ error: 'must be a URL' }).optional(),
  OPENAI_MODEL: z.string().min(1).default('gpt-4.1-mini'),
  OPENAI_EMBEDDING_MODEL: z.string().min(1).default('text-embedding-3-small'),
  OPENAI_MAX_OUTPUT_TOKENS: z.coerce
    .number({ error: 'must be a number of tokens' })
    .int('must be a whole number')
    .min(100, 'must be at least 100')
    .max(1_000_000, 'must be at most 1000000')
    .optional(),
  OPENAI_INPUT_DOLLARS_PER_MILLION: dollarsPerMillion.optional(),
  OPENAI_OUTPUT_DOLLARS_PER_MILLION: dollarsPerMillion.optional(),
  // Used only without OPENAI_API_KEY. Unset: the default local address, probed at start-up.
  OLLAMA_BASE_URL: z
    .union([z.literal('none'), z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, or none' })])
    // The Ollama server's own address; the OpenAI-compatible API is at /v1 below it, a common slip.
    .transform((url) => (url === 'none' ? url : url.replace(/\/+$/, '').replace(/\/v1$/, '')))
    .optional(),
  // llama3.1 (8B, about 5 GB): a widely pulled general model that fits a laptop GPU, whose 128k-token
  // window holds a deep synthesis prompt (about 30k tokens) once Ollama's context length is raised.
  OLLAMA_MODEL: z.string().min(1).default('llama3.1'),
  /** Used when the Ollama server has it; otherwise claims are matched by their words. */
  OLLAMA_EMBEDDING_MODEL: z.string().min(1).default('nomic-embed-text'),
  // A local model writes a synthesis at tens of tokens a second: the 30 s of PROVIDER_TIMEOUT_SECONDS is too short.
  OLLAMA_TIMEOUT_SECONDS: z.coerce.number({ error: 'must be a number' }).positive().max(3600).default(120),
  MEMORY_MAX_FACTS: z.coerce.number({ error: 'must be a number' }).int().min(10).max(100_000).default(2000),
  /** Fetch the pages of snippet-only results (open sources, Brave, SearXNG); off keeps the snippets. */
  READ_PAGES: flag.default(true),
  READER_ALLOW_HOSTS: allowHosts(),
  PROVIDER_TIMEOUT_SECONDS: z.coerce.number({ error: 'must be a number' }).positive().max(600).default(30),
  RUN_DEADLINE_QUICK_SECONDS: z.coerce.number({ error: 'must be a number' }).positive().max(3600).default(120),
  RUN_DEADLINE_DEEP_SECONDS: z.coerce.number({ error: 'must be a number' }).positive().max(3600).default(240),
  RUN_MAX_TOKENS: z.coerce
    .number({ error: 'must be a number of tokens' })
    .int('must be a whole number')
    .min(TOKEN_BUDGET.min, 'must be from 1000 to 10000000')
    .max(TOKEN_BUDGET.max, 'must be from 1000 to 10000000')
    .optional(),
  RECURRING_INTERVAL: duration('7d'),
  // How long a run may wait for a worker before its own time limit starts; past both, it fails.
  RUN_QUEUE_TIMEOUT: duration('1h'),
  SCHEDULE_MIN_INTERVAL: duration('1h'),
  // Series due at one cron time wake spread over this window; 0 wakes them all at that time.
  SCHEDULE_SPREAD: duration('5m', { zero: true }),
  // Provider rates shared by every process (issue 42): calls wait for their turn under them.
  EXA_REQUESTS_PER_SECOND: z.coerce.number({ error: 'must be a number' }).int().min(1).max(10_000).default(10),
  OPENAI_REQUESTS_PER_MINUTE: z.coerce.number({ error: 'must be a number' }).int().min(1).max(1_000_000).default(500),
  // Calls running at once to each provider, every process together; unset: no limit but the rate.
  EXA_CONCURRENT_REQUESTS: z.coerce.number({ error: 'must be a number' }).int().min(1).max(10_000).optional(),
  OPENAI_CONCURRENT_REQUESTS: z.coerce.number({ error: 'must be a number' }).int().min(1).max(10_000).optional(),
  WORKER_CONCURRENCY: z.coerce.number({ error: 'must be a number' }).int().min(1).max(100).default(8),
  RATE_LIMIT_RUNS_PER_HOUR: z.coerce.number({ error: 'must be a number' }).int().min(1).default(5),
  RATE_LIMIT_MCP_PER_HOUR: z.coerce.number({ error: 'must be a number' }).int().min(1).default(120),
  MEMORY_ENCRYPTION_KEYS: z
    .string()
    .superRefine((spec, context) => {
      try {
        parseKeyRing(spec)
      } catch (error) {
        context.addIssue({ code: 'custom', message: `must be kid:base64key,... (${(error as Error).message})` })
      }
    })
    .optional(),
  RATE_LIMIT_DEMO_PER_DAY: z.coerce.number({ error: 'must be a number' }).int().min(1).default(3),
  RATE_LIMIT_MCP_PER_ACCOUNT_PER_HOUR: z.coerce.number({ error: 'must be a number' }).int().min(1).default(120),
  RATE_LIMIT_MENTIONS_PER_HOUR: z.coerce.number({ error: 'must be a number' }).int().min(1).default(10),
  RATE_LIMIT_MENTIONS_PER_ACCOUNT_PER_HOUR: z.coerce.number({ error: 'must be a number' }).int().min(1).default(20),
  RATE_LIMIT_LOGIN_FAILURES_PER_HOUR: z.coerce.number({ error: 'must be a number' }).int().min(1).default(10),
  RATE_LIMIT_CONFIRMATIONS_PER_ACCOUNT_PER_HOUR: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1)
    .default(10),
  RATE_LIMIT_CONFIRMATIONS_PER_ADDRESS_PER_DAY: z.coerce.number({ error: 'must be a number' }).int().min(1).default(3),
  RATE_LIMIT_KEY_FAILURES_PER_MINUTE: z.coerce.number({ error: 'must be a number' }).int().min(1).default(30),
  API_KEYS_PER_ACCOUNT: z.coerce.number({ error: 'must be a number' }).int().min(1).max(1000).default(20),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  SLACK_SIGNING_SECRET: z.string().min(1).optional(),
  SLACK_API_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .default('https://slack.com/api/')
    .transform((url) => (url.endsWith('/') ? url : `${url}/`)),
  // Outbound webhooks (server/integrations/webhooks/). Attempt n waits WEBHOOK_RETRY_BASE * 2^(n-1),
  // at most WEBHOOK_RETRY_MAX; tests shorten the clock.
  WEBHOOK_RETRY_BASE: duration('30s'),
  WEBHOOK_RETRY_MAX: duration('24h'),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number({ error: 'must be a number' }).int().min(1).max(100).default(15),
  /** Consecutive failed attempts (any of its events) after which an endpoint is disabled. */
  WEBHOOK_DISABLE_AFTER: z.coerce.number({ error: 'must be a number' }).int().min(1).max(10_000).default(30),
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number({ error: 'must be a number' }).positive().max(120).default(15),
  /** Plain http endpoints: for tests and local development only. */
  WEBHOOK_ALLOW_HTTP: flag.default(false),
  /** `host:port` endpoints admitted at private addresses: a test's own receiver on loopback. */
  WEBHOOK_ALLOW_HOSTS: allowHosts(),
  GITHUB_WEBHOOK_SECRET: z.string().min(1).optional(),
  GITHUB_TOKEN: z.string().min(1).optional(),
  GITHUB_API_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .default('https://api.github.com')
    .transform((url) => url.replace(/\/+$/, '')),
  // Email digests: a nodemailer transport URL (smtp://user:pass@host:587, smtps://... for TLS from
  // the start); unset, email is off and the API and dashboard say so.
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  EMAIL_FROM: z.string().min(3).default('Sextant <sextant@localhost>'),
})

type ParsedEnv = z.infer<typeof ConfigSchema>

export type Config = Omit<
  ParsedEnv,
  | 'DATA_DIR'
  | 'LOCAL_DEV_AUTH'
  | 'PUBLIC_URL'
  | 'MAX_CONNECTIONS_PER_ADDRESS'
  | 'SEARCH_PROVIDER'
  | 'READER_ALLOW_HOSTS'
  | 'WEBHOOK_ALLOW_HOSTS'
> & {
  /**
   * The search provider in use: as set, or the first of Exa, Tavily, Brave and SearXNG whose key (or
   * URL) is set, else the open sources.
   */
  SEARCH_PROVIDER: SearchProviderName
  /** Where people reach this server, without a trailing slash: links in Slack and GitHub point here. */
  PUBLIC_URL: string
  /** Absolute path. */
  DATA_DIR: string
  /** True when the app manages its own Postgres under DATA_DIR. */
  embeddedDatabase: boolean
  /** DATABASE_PREPARED_STATEMENTS resolved: `auto` is on for the embedded Postgres only. */
  preparedStatements: boolean
  /** Requests from loopback without a key act as the local account (npm run dev, or set explicitly). */
  LOCAL_DEV_AUTH: boolean
  /** Open TCP connections one client address may hold; 0 for no limit (the default behind TRUST_PROXY). */
  MAX_CONNECTIONS_PER_ADDRESS: number
  /** `host:port` entries the page reader may fetch at private addresses; nothing else may be. */
  READER_ALLOW_HOSTS: string[]
  /** `host:port` entries outbound webhooks may reach at private addresses (tests, local development). */
  WEBHOOK_ALLOW_HOSTS: string[]
}

/** Where Ollama listens unless OLLAMA_BASE_URL says otherwise (its own default). */
export const DEFAULT_OLLAMA_BASE_URL = 'http://127.0.0.1:11434'

/** Without TRUST_PROXY the socket's address is the client's; a few hundred covers a busy office's NAT. */
const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 256

export class ConfigError extends Error {
  readonly issues: Array<{ variable: string; message: string }>
  constructor(issues: Array<{ variable: string; message: string }>) {
    const lines = issues.map((issue) => `  ${issue.variable}: ${issue.message}`)
    super(`Invalid configuration:\n${lines.join('\n')}`)
    this.name = 'ConfigError'
    this.issues = issues
  }
}

/**
 * A number out of its range says the range: a schema's "must be a number" is its message for every
 * check that has none of its own, and a number too big is a number ("EXA_REQUESTS_PER_SECOND: must
 * be at most 10000", not "must be a number").
 */
function boundSaid(issue: z.core.$ZodIssue): string {
  if (!issue.message.startsWith('must be a number')) return issue.message
  if (issue.code === 'too_big') return `must be at most ${issue.maximum}`
  if (issue.code === 'too_small') return `must be at least ${issue.minimum}`
  if (issue.code === 'invalid_type' && issue.expected === 'int') return 'must be a whole number'
  return issue.message
}

/** Parses the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Config {
  // An empty variable means "unset", as it does in most shells' `VAR= cmd`.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''))
  const result = ConfigSchema.safeParse(present)
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const variable = String(issue.path[0] ?? '(environment)')
        const given = present[variable]
        const suffix = given === undefined ? '' : ` (got ${JSON.stringify(given)})`
        return { variable, message: `${boundSaid(issue)}${suffix}` }
      }),
    )
  }
  const parsed = result.data
  // Node refuses a server whose headers may take longer than the whole request.
  if (parsed.HTTP_HEADERS_TIMEOUT_SECONDS > parsed.HTTP_REQUEST_TIMEOUT_SECONDS) {
    throw new ConfigError([
      {
        variable: 'HTTP_HEADERS_TIMEOUT_SECONDS',
        message: `must not be more than HTTP_REQUEST_TIMEOUT_SECONDS (${parsed.HTTP_REQUEST_TIMEOUT_SECONDS})`,
      },
    ])
  }
  // Half a price would undercount every run measured against a cost budget.
  const prices = [parsed.OPENAI_INPUT_DOLLARS_PER_MILLION, parsed.OPENAI_OUTPUT_DOLLARS_PER_MILLION]
  if (prices.filter((price) => price !== undefined).length === 1) {
    const missing =
      parsed.OPENAI_INPUT_DOLLARS_PER_MILLION === undefined
        ? 'OPENAI_INPUT_DOLLARS_PER_MILLION'
        : 'OPENAI_OUTPUT_DOLLARS_PER_MILLION'
    throw new ConfigError([
      {
        variable: missing,
        message: 'must be set too: model tokens are priced with both the input and the output price (0 is a price)',
      },
    ])
  }
  const keyed = Object.keys(PROVIDER_SETTINGS) as KeyedProvider[]
  const searchProvider = parsed.SEARCH_PROVIDER ?? keyed.find((name) => parsed[PROVIDER_SETTINGS[name]]) ?? 'open'
  const needed = keyed.includes(searchProvider as KeyedProvider)
    ? PROVIDER_SETTINGS[searchProvider as KeyedProvider]
    : undefined
  if (needed && !parsed[needed]) {
    throw new ConfigError([
      {
        variable: needed,
        message: `must be set when SEARCH_PROVIDER is ${searchProvider} (or choose open or corpus)`,
      },
    ])
  }
  return {
    ...parsed,
    SEARCH_PROVIDER: searchProvider,
    DATA_DIR: path.resolve(cwd, parsed.DATA_DIR),
    embeddedDatabase: parsed.DATABASE_URL === undefined,
    preparedStatements:
      parsed.DATABASE_PREPARED_STATEMENTS === 'auto'
        ? parsed.DATABASE_URL === undefined
        : parsed.DATABASE_PREPARED_STATEMENTS === 'on',
    LOCAL_DEV_AUTH: parsed.LOCAL_DEV_AUTH ?? parsed.NODE_ENV === 'development',
    PUBLIC_URL: parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`,
    // Behind proxies every socket comes from a proxy: a cap per socket address would cap the whole
    // site, so there it is off unless set (the proxy bounds its clients; see server/http/connection-cap.ts).
    MAX_CONNECTIONS_PER_ADDRESS:
      parsed.MAX_CONNECTIONS_PER_ADDRESS ?? (parsed.TRUST_PROXY > 0 ? 0 : DEFAULT_MAX_CONNECTIONS_PER_ADDRESS),
    READER_ALLOW_HOSTS: parsed.READER_ALLOW_HOSTS ?? [],
    WEBHOOK_ALLOW_HOSTS: parsed.WEBHOOK_ALLOW_HOSTS ?? [],
  }
}

/** What the model charges, when both prices are configured; otherwise model tokens are not priced. */
export function modelPrices(
  config: Pick<Config, 'OPENAI_INPUT_DOLLARS_PER_MILLION' | 'OPENAI_OUTPUT_DOLLARS_PER_MILLION'>,
): { inputPerMillion: number; outputPerMillion: number } | undefined {
  const { OPENAI_INPUT_DOLLARS_PER_MILLION: input, OPENAI_OUTPUT_DOLLARS_PER_MILLION: output } = config
  return input === undefined || output === undefined ? undefined : { inputPerMillion: input, outputPerMillion: output }
}
