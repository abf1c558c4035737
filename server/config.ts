// The one place that reads the environment. Everything else receives a Config.
import path from 'node:path'
import { z } from 'zod'
import { parseKeyRing } from '#server/crypto/key-ring.ts'
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

/** The search providers that exist; SEARCH_PROVIDER must name one of them. */
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

// Each variable's `.meta({ defaultText, meaning })` is its row in docs/reference/configuration.md
// (Markdown), written by `npm run docs:reference`; test/docs-reference.test.ts fails a variable without.
export const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production').meta({
    defaultText: '`production`',
    meaning: '`development` (what `npm run dev` sets: Vite middleware, HMR), `production`, or `test`.',
  }),
  HOST: z.string().min(1).default('127.0.0.1').meta({
    defaultText: '`127.0.0.1`',
    meaning: 'Interface the HTTP server listens on. The Docker image sets `0.0.0.0`.',
  }),
  PORT: port
    .default(3000)
    .meta({ defaultText: '`3000`', meaning: 'HTTP port; `0` picks a free one (the log says which).' }),
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' })
    .optional()
    .meta({
      defaultText: 'unset',
      meaning: '`postgres://` URL of your own Postgres. When set, no embedded Postgres starts.',
    }),
  DATABASE_POOL_SIZE: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(2)
    .max(200)
    .default(10)
    .meta({ defaultText: '`10`', meaning: "Connections in the app's pool (the job system keeps up to 4 more)." }),
  // Seconds an idle connection of the app's pool stays open; 0 keeps it until the app stops. Opening
  // one costs a new Postgres backend and SCRAM (about 8 ms and 5 ms of the app's CPU here), which a
  // run after a quiet spell, a monitored topic's usual case, paid for each of its connections.
  DATABASE_POOL_IDLE_SECONDS: z.coerce.number({ error: 'must be a number' }).int().min(0).max(86_400).default(0).meta({
    defaultText: '`0`',
    meaning:
      "How long an idle connection of the app's pool stays open, in seconds; `0` keeps it open until the app stops. A new connection costs a Postgres backend and SCRAM authentication (about 8 ms, 5 ms of the app's CPU), which a run after a quiet spell paid for each connection it used with pg's default of 10 s. Over TCP, idle connections get keepalive probes, so one a firewall dropped is replaced instead of hanging.",
  }),
  // Named (prepared) statements: on by default only for the embedded Postgres, since a pooler in
  // transaction mode (PgBouncer before 1.21) cannot keep them.
  DATABASE_PREPARED_STATEMENTS: z.enum(['auto', 'on', 'off']).default('auto').meta({
    defaultText: '`auto`',
    meaning:
      '`on`: parameterised statements are sent as named statements, which Postgres parses and plans once per connection (about a quarter less Postgres CPU per run); whole-row reads and inserts whose ON CONFLICT names a partial index never are. `auto` is `on` for the embedded Postgres and `off` with `DATABASE_URL`, since a pooler in transaction mode (PgBouncer before 1.21) cannot keep them.',
  }),
  DATA_DIR: z.string().min(1).default('.data').meta({
    defaultText: '`.data`',
    meaning:
      'Where local state lives: the embedded Postgres cluster, its log and password. Relative to the working directory.',
  }),
  EMBEDDED_PG_PORT: port.default(54329).meta({
    defaultText: '`54329`',
    meaning:
      'Preferred port of the embedded Postgres (127.0.0.1 only). If it is taken, a free port is used and logged.',
  }),
  // Extra settings for the embedded Postgres, `name=value` separated by spaces (the bench loads
  // pg_stat_statements with it).
  EMBEDDED_PG_SETTINGS: z
    .string()
    .regex(/^\s*([a-z_.]+=[^\s=]+\s*)*$/, { error: 'must be name=value pairs separated by spaces' })
    .default('')
    .transform((value) => value.split(/\s+/).filter(Boolean))
    .meta({
      defaultText: '(none)',
      meaning:
        'Extra settings for the embedded Postgres, `name=value` pairs separated by spaces, each passed as `-c` (`npm run bench -- --statements` loads `pg_stat_statements` this way).',
    }),
  RUN_ROLE: z.enum(['all', 'web', 'worker']).default('all').meta({
    defaultText: '`all`',
    meaning: '`all` serves HTTP and runs jobs; `web` only serves (and sends jobs); `worker` only runs jobs.',
  }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').meta({
    defaultText: '`info`',
    meaning: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`. Logs are JSON lines on stdout.',
  }),
  BUILD_ON_START: flag.default(true).meta({
    defaultText: '`true`',
    meaning:
      'Build the web app at start when there is no build, or when sources are newer than it. The Docker image sets `false` (it ships a build).',
  }),
  TRUST_PROXY: z.coerce.number({ error: 'must be a number of proxy hops' }).int().min(0).max(10).default(0).meta({
    defaultText: '`0`',
    meaning:
      'How many proxies in front of Sextant to trust for the client address. `0` uses the socket address; `1` or more uses `Fly-Client-IP`, else `X-Forwarded-For`. Rate limits per IP depend on it.',
  }),
  HTTP_HEADERS_TIMEOUT_SECONDS: z.coerce.number({ error: 'must be a number' }).positive().max(600).default(15).meta({
    defaultText: '`15`',
    meaning:
      "A request's headers must arrive within this; a client that sends part of them and stops gets 408 and its connection is closed.",
  }),
  HTTP_REQUEST_TIMEOUT_SECONDS: z.coerce.number({ error: 'must be a number' }).positive().max(3600).default(60).meta({
    defaultText: '`60`',
    meaning:
      'The whole request, body included, must arrive within this (at least `HTTP_HEADERS_TIMEOUT_SECONDS`). It bounds receiving only: responses, event streams included, are never cut by it.',
  }),
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number({ error: 'must be a number' }).positive().max(600).default(5).meta({
    defaultText: '`5`',
    meaning:
      "An idle kept-alive connection is closed after this. Behind a load balancer that reuses connections, set it above the balancer's idle timeout.",
  }),
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce
    .number({ error: 'must be a number (0 for no limit)' })
    .int()
    .min(0)
    .max(1_000_000)
    .optional()
    .meta({
      defaultText: '`256`; none with `TRUST_PROXY`',
      meaning:
        "Open connections one client address (an IPv6 /64) may hold; more are closed at once. Loopback counts like any address. Behind proxies every connection comes from the proxy, so with `TRUST_PROXY` set there is no cap unless you set one (it then caps the proxy's connections): bound clients at the proxy. `0` turns it off.",
    }),
  MAX_EVENT_STREAMS_PER_SESSION: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1)
    .max(10_000)
    .default(20)
    .meta({
      defaultText: '`20`',
      meaning:
        "Event streams one dashboard session, trial visitor or API key may hold open at once, per process (a key's run-event streams and MCP SSE sessions count together); the next is refused with 429.",
    }),
  LOCAL_DEV_AUTH: flag.optional().meta({
    defaultText: '`true` under `npm run dev`, else `false`',
    meaning:
      'Requests from this machine (a loopback socket, to `localhost`, `127.0.0.1` or `[::1]`) without an `Authorization` header act as the local account. Never from another address, nor to another host name (DNS rebinding).',
  }),
  DEMO_KEY: z
    .string()
    .regex(
      /^sx_[a-z0-9]{8}_[A-Za-z0-9]{32}$/,
      'must look like sx_<8 lower-case letters or digits>_<32 letters or digits>',
    )
    .optional()
    .meta({
      defaultText: 'generated',
      meaning:
        'The public demo key (`sx_<8>_<32>`). Each client address that uses it is a demo visitor with runs of its own; it starts `RATE_LIMIT_DEMO_PER_DAY` runs per address per day, no recurring briefs, and manages no keys. When unset, one is generated at first start and printed once.',
    }),
  SEARCH_PROVIDER: z
    .enum(SEARCH_PROVIDERS, { error: `must be one of ${SEARCH_PROVIDERS.join(', ')}` })
    .optional()
    .meta({
      defaultText: 'the first of Exa, Tavily, Brave, SearXNG whose key or URL is set; else `open`',
      meaning:
        'Where runs search: `open` (the keyless open sources, falling back to the local corpus offline), `exa`, `tavily`, `brave`, `searxng` or `corpus` (see [Search](#search)). A keyed provider named without its key (or SearXNG without its URL) stops the start with a message naming the variable.',
    }),
  EXA_API_KEY: z
    .string()
    .min(1)
    .optional()
    .meta({ defaultText: 'unset', meaning: 'Searches the web with Exa; set, it is the default provider.' }),
  EXA_BASE_URL: z
    .url({ error: 'must be a URL' })
    .optional()
    .meta({ defaultText: "Exa's API", meaning: 'Another Exa-compatible endpoint (tests use a stub).' }),
  // Provider rates shared by every process (issue 42): calls wait for their turn under them.
  EXA_REQUESTS_PER_SECOND: z.coerce.number({ error: 'must be a number' }).int().min(1).max(10_000).default(10).meta({
    defaultText: '`10`',
    meaning:
      "Exa searches per second, counted in Postgres for every process together (Exa's default limit for `/search`). A search over it waits for its turn, within the run's deadline. Set your plan's limit.",
  }),
  // Calls running at once to each provider, every process together; unset: no limit but the rate.
  EXA_CONCURRENT_REQUESTS: z.coerce.number({ error: 'must be a number' }).int().min(1).max(10_000).optional().meta({
    defaultText: 'unset',
    meaning:
      'Exa searches running at once, every process together (held in Postgres, `provider_slots`); a search over it waits for one to end. Unset: only the rate limits them.',
  }),
  TAVILY_API_KEY: z.string().min(1).optional().meta({
    defaultText: 'unset',
    meaning:
      "Searches the web with Tavily (a basic search, 1 credit, with each page's raw text when Tavily has it). Its client also reads `TAVILY_HTTP_PROXY`, `TAVILY_HTTPS_PROXY`, `HTTP_PROXY` and `HTTPS_PROXY` itself.",
  }),
  TAVILY_BASE_URL: baseUrl('https://api.tavily.com').meta({
    defaultText: '`https://api.tavily.com`',
    meaning: 'Another Tavily-compatible endpoint (tests use a stub).',
  }),
  BRAVE_API_KEY: z.string().min(1).optional().meta({
    defaultText: 'unset',
    meaning:
      'Searches the web with the Brave Search API (sent as `X-Subscription-Token`). Results are snippets, so their pages are read; a spent monthly quota fails the search and says when it resets.',
  }),
  BRAVE_BASE_URL: baseUrl('https://api.search.brave.com').meta({
    defaultText: '`https://api.search.brave.com`',
    meaning: 'Another Brave-compatible endpoint (tests use a stub).',
  }),
  // A SearXNG instance (self-hosted, JSON format enabled): there is no public default.
  SEARXNG_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .transform((url) => url.replace(/\/+$/, ''))
    .optional()
    .meta({
      defaultText: 'unset',
      meaning:
        'A SearXNG instance (`https://search.example.org`), searched through its JSON API: enable `json` under `search.formats` in its settings.yml; its limiter (`server.limiter`) may need to let Sextant through. Redirects are not followed: give the final address.',
    }),
  // The keyless open sources of the `open` provider (server/providers/search/open.ts).
  GDELT_BASE_URL: baseUrl('https://api.gdeltproject.org').meta({
    defaultText: '`https://api.gdeltproject.org`',
    meaning: 'GDELT DOC 2.0 (news by date window). Like the four below, another address serves tests and mirrors.',
  }),
  WIKIPEDIA_BASE_URL: baseUrl('https://en.wikipedia.org').meta({
    defaultText: '`https://en.wikipedia.org`',
    meaning: 'A MediaWiki site (`https://de.wikipedia.org` for German).',
  }),
  OPENALEX_BASE_URL: baseUrl('https://api.openalex.org').meta({
    defaultText: '`https://api.openalex.org`',
    meaning: 'OpenAlex (scholarly works with abstracts).',
  }),
  ARXIV_BASE_URL: baseUrl('https://export.arxiv.org').meta({
    defaultText: '`https://export.arxiv.org`',
    meaning: "arXiv's API (preprints).",
  }),
  HN_SEARCH_BASE_URL: baseUrl('https://hn.algolia.com').meta({
    defaultText: '`https://hn.algolia.com`',
    meaning: 'Hacker News search through Algolia.',
  }),
  SEARCH_CONTACT_EMAIL: z.email({ error: 'must be an email address' }).optional().meta({
    defaultText: 'unset',
    meaning:
      'A contact address for the open sources: it goes in the User-Agent (`Sextant/1.0 (+PUBLIC_URL; address)`), as Wikimedia asks, and to OpenAlex as `mailto` (its faster polite pool).',
  }),
  OPENALEX_API_KEY: z
    .string()
    .min(1)
    .optional()
    .meta({ defaultText: 'unset', meaning: 'An OpenAlex API key, for higher daily limits.' }),
  /** Fetch the pages of snippet-only results (open sources, Brave, SearXNG); off keeps the snippets. */
  READ_PAGES: flag.default(true).meta({
    defaultText: '`true`',
    meaning:
      'Fetch the pages of results that come with a snippet only (the open sources) and read their article text. `false` keeps the snippets.',
  }),
  OPENAI_API_KEY: z.string().min(1).optional().meta({
    defaultText: 'unset',
    meaning:
      'Plans and writes with an OpenAI-compatible model (see [Models](#models)). Unset: the Ollama on this machine if it answers and has `OLLAMA_MODEL`, else the extractive synthesizer (a fallback plan and ranked sentences with citations, labelled in the report).',
  }),
  OPENAI_BASE_URL: z.url({ error: 'must be a URL' }).optional().meta({
    defaultText: "OpenAI's API",
    meaning:
      'Any OpenAI-compatible server: vLLM, OpenRouter, Groq, Anthropic, Gemini, a proxy (see [Models](#models)).',
  }),
  OPENAI_MODEL: z.string().min(1).default('gpt-4.1-mini').meta({
    defaultText: '`gpt-4.1-mini`',
    meaning:
      'The model id. A server that cannot hold it to a JSON schema is asked in JSON mode instead (see [Models](#models)).',
  }),
  OPENAI_REQUESTS_PER_MINUTE: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1)
    .max(1_000_000)
    .default(500)
    .meta({
      defaultText: '`500`',
      meaning:
        "Chat and embedding calls per minute to `OPENAI_API_KEY`'s server, counted in Postgres for every process together; a call over it waits for its turn. OpenAI's limits depend on the model and your account's tier: set the one on your organization's limits page. Not applied to a local model.",
    }),
  OPENAI_CONCURRENT_REQUESTS: z.coerce.number({ error: 'must be a number' }).int().min(1).max(10_000).optional().meta({
    defaultText: 'unset',
    meaning:
      "Chat and embedding calls running at once to `OPENAI_API_KEY`'s server, every process together (held in Postgres, `provider_slots`); a call over it waits for one to end. Set it for a server that serves only so many at once (a vLLM or a proxy with a concurrency cap); OpenAI itself limits rates, not concurrency. Unset: only the rate limits them.",
  }),
  OPENAI_EMBEDDING_MODEL: z.string().min(1).default('text-embedding-3-small').meta({
    defaultText: '`text-embedding-3-small`',
    meaning:
      'Embeddings (`/v1/embeddings` of the same server) used to find which stored claims a new claim may repeat, update or contradict; Ollama and vLLM serve embedding models too. `none` turns them off: claims are then matched by their words. A failure is a `warning` event, and the run goes on with words alone.',
  }),
  OPENAI_MAX_OUTPUT_TOKENS: z.coerce
    .number({ error: 'must be a number of tokens' })
    .int('must be a whole number')
    .min(100, 'must be at least 100')
    .max(1_000_000, 'must be at most 1000000')
    .optional()
    .meta({
      defaultText: 'unset',
      meaning:
        "Output-token limit for every model call, replacing the built-in ones (plan 800; report 3,000 quick, 6,000 deep; claim judge 256 + 48 per claim, up to 4,096). Raise it for reasoning models (o-series, gpt-5), whose hidden reasoning counts against the limit. An answer cut off at the limit is unusable: the fallback plan or the extractive report takes over, and its tokens are still counted. OpenAI's own API receives it as `max_completion_tokens`, any other server as `max_tokens` (the one Ollama reads).",
    }),
  OPENAI_INPUT_DOLLARS_PER_MILLION: dollarsPerMillion.optional().meta({
    defaultText: 'unset',
    meaning:
      "What the model charges per million prompt tokens. With both prices set, model tokens count against a brief's `maxCostDollars`; unset, only search dollars do. Set both or neither.",
  }),
  OPENAI_OUTPUT_DOLLARS_PER_MILLION: dollarsPerMillion
    .optional()
    .meta({ defaultText: 'unset', meaning: 'What the model charges per million completion tokens (see above).' }),
  // Used only without OPENAI_API_KEY. Unset: the default local address, probed at start-up.
  OLLAMA_BASE_URL: z
    .union([z.literal('none'), z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, or none' })])
    // The Ollama server's own address; the OpenAI-compatible API is at /v1 below it, a common slip.
    .transform((url) => (url === 'none' ? url : url.replace(/\/+$/, '').replace(/\/v1$/, '')))
    .optional()
    .meta({
      defaultText: '`http://127.0.0.1:11434`',
      meaning:
        'Used only without `OPENAI_API_KEY`. At start-up Sextant asks this Ollama server for its models (`GET /api/tags`, at most 1 s); if it has `OLLAMA_MODEL`, Sextant plans and writes with it through its OpenAI-compatible API (`/v1`; a trailing `/v1` here is dropped). `none` turns the probe off. Decided at start-up: after pulling a model or starting Ollama, restart Sextant.',
    }),
  // llama3.1 (8B, about 5 GB): a widely pulled general model that fits a laptop GPU, whose 128k-token
  // window holds a deep synthesis prompt (about 30k tokens) once Ollama's context length is raised.
  OLLAMA_MODEL: z.string().min(1).default('llama3.1').meta({
    defaultText: '`llama3.1`',
    meaning:
      'The Ollama model; a name without a tag means `:latest`. If Ollama does not have it, the log names the `ollama pull` command and reports are written without a model.',
  }),
  /** Used when the Ollama server has it; otherwise claims are matched by their words. */
  OLLAMA_EMBEDDING_MODEL: z.string().min(1).default('nomic-embed-text').meta({
    defaultText: '`nomic-embed-text`',
    meaning:
      'Used for claim matching when Ollama has it pulled; otherwise claims are matched by their words. `none` turns it off.',
  }),
  // A local model writes a synthesis at tens of tokens a second: the 30 s of PROVIDER_TIMEOUT_SECONDS is too short.
  OLLAMA_TIMEOUT_SECONDS: z.coerce.number({ error: 'must be a number' }).positive().max(3600).default(120).meta({
    defaultText: '`120`',
    meaning:
      'Per attempt, for each call to the Ollama model, instead of `PROVIDER_TIMEOUT_SECONDS`: a local model writes tens of tokens a second.',
  }),
  READER_ALLOW_HOSTS: allowHosts().meta({
    defaultText: 'unset',
    meaning:
      'Private hosts the page reader may fetch: `host:port` entries separated by commas (`wiki.corp:443,127.0.0.1:8080`, IPv6 in brackets: `[fd00::5]:80`). The reader refuses every address that is not public (loopback, private networks, carrier-grade NAT, link-local and cloud metadata, their IPv6 forms), at every redirect. An entry admits exactly that host name and port; nothing else opens a private address.',
  }),
  PROVIDER_TIMEOUT_SECONDS: z.coerce.number({ error: 'must be a number' }).positive().max(600).default(30).meta({
    defaultText: '`30`',
    meaning: 'Per attempt, for each search or model call; 429, 5xx and timeouts are retried with backoff.',
  }),
  RUN_DEADLINE_QUICK_SECONDS: z.coerce.number({ error: 'must be a number' }).positive().max(3600).default(120).meta({
    defaultText: '`120`',
    meaning:
      'A quick run that has not finished this long after a worker took it fails with `deadline_exceeded` (the time it waited in the queue does not count).',
  }),
  RUN_DEADLINE_DEEP_SECONDS: z.coerce
    .number({ error: 'must be a number' })
    .positive()
    .max(3600)
    .default(240)
    .meta({ defaultText: '`240`', meaning: 'The same for deep runs.' }),
  // How long a run may wait for a worker before its own time limit starts; past both, it fails.
  RUN_QUEUE_TIMEOUT: duration('1h').meta({
    defaultText: '`1h`',
    meaning:
      'How long a run may wait for a worker (a duration: `30m`, `2h`) before its own time limit starts counting anyway; a run no worker took by then and its limit fails with `deadline_exceeded` ("no worker took the run").',
  }),
  RECURRING_INTERVAL: duration('7d').meta({
    defaultText: '`7d`',
    meaning:
      'How long a recurring brief sleeps between runs when it sets neither `every` nor `cron`: `7d`, `12h`, `30m`, `45s` or seconds.',
  }),
  SCHEDULE_MIN_INTERVAL: duration('1h').meta({
    defaultText: '`1h`',
    meaning:
      'The shortest `every` (and the closest cron runs) a recurring brief may ask for; the longest is 30 days. Lower it only for tests and demos.',
  }),
  // Series due at one cron time wake spread over this window; 0 wakes them all at that time.
  SCHEDULE_SPREAD: duration('5m', { zero: true }).meta({
    defaultText: '`5m`',
    meaning:
      'Series whose cron falls due at one time (thousands of "Mondays at nine") wake spread over this window, each at its own moment drawn from its id, shown as its next run. `0` wakes them all at the cron time. An `every` is not moved: it is spread by when each series\' last run ended.',
  }),
  WORKER_CONCURRENCY: z.coerce.number({ error: 'must be a number' }).int().min(1).max(100).default(8).meta({
    defaultText: '`8`',
    meaning: 'Research runs one worker process runs at once (they mostly wait on providers).',
  }),
  RUNS_PER_ACCOUNT: z.coerce
    .number({ error: 'must be a number (0 for no limit)' })
    .int()
    .min(0)
    .max(10_000)
    .optional()
    .meta({
      defaultText: '`WORKER_CONCURRENCY`',
      meaning:
        "Research runs one account may have going at once across every worker process; its other runs wait in the queue while other accounts' runs are taken. Unset, one worker process's worth: a single process is not limited by it, and on several no account holds more than one's slots. `0`: no limit. Set it alike on every process.",
    }),
  MEMORY_ENCRYPTION_KEYS: z
    .string()
    .superRefine((spec, context) => {
      try {
        parseKeyRing(spec)
      } catch (error) {
        context.addIssue({ code: 'custom', message: `must be kid:base64key,... (${(error as Error).message})` })
      }
    })
    .optional()
    .meta({
      defaultText: 'generated into `DATA_DIR/memory-key`',
      meaning:
        'The key ring that seals topic memory, reports, briefs, run events, notices, mention text and the topic index key and reports: `kid:base64key,...`, 32-byte keys; the first seals, all open. Required in production with `DATABASE_URL` (`npm run cli -- memory keygen` makes one). Locally a key is generated once (mode 600): back it up, memory cannot be read without it.',
    }),
  MEMORY_MAX_FACTS: z.coerce.number({ error: 'must be a number' }).int().min(10).max(100_000).default(2000).meta({
    defaultText: '`2000`',
    meaning:
      'Facts (claims) memory keeps per topic, superseded ones included; past it, superseded facts go first (an update then shows no "was"), then those unconfirmed for longest.',
  }),
  RUN_MAX_TOKENS: z.coerce
    .number({ error: 'must be a number of tokens' })
    .int('must be a whole number')
    .min(TOKEN_BUDGET.min, 'must be from 1000 to 10000000')
    .max(TOKEN_BUDGET.max, 'must be from 1000 to 10000000')
    .optional()
    .meta({
      defaultText: 'unset',
      meaning:
        "The token budget of a run whose brief sets no `maxTokens` (1,000 to 10,000,000; model tokens, prompt and completion). A run that would spend past it leaves out what does not fit (the follow-up round, part of the pages, the model's report, the claim judge), finishes with what it has, and says so in `report.budget` and a `budget_reached` warning. Unset: no server-wide limit.",
    }),
  RATE_LIMIT_RUNS_PER_HOUR: z.coerce.number({ error: 'must be a number' }).int().min(1).default(5).meta({
    defaultText: '`5`',
    meaning:
      "Research runs each client address may start per hour (sliding window), from the API, MCP, the dashboard and the trial. The local account's 429 names this setting.",
  }),
  RATE_LIMIT_MCP_PER_HOUR: z.coerce.number({ error: 'must be a number' }).int().min(1).default(120).meta({
    defaultText: '`120`',
    meaning: 'MCP tool calls per API key per hour (sliding window); see also the per-account limit.',
  }),
  RATE_LIMIT_DEMO_PER_DAY: z.coerce.number({ error: 'must be a number' }).int().min(1).default(3).meta({
    defaultText: '`3`',
    meaning: 'Runs the demo key or the trial page may start per address per day (sliding window).',
  }),
  RATE_LIMIT_MCP_PER_ACCOUNT_PER_HOUR: z.coerce.number({ error: 'must be a number' }).int().min(1).default(120).meta({
    defaultText: '`120`',
    meaning: 'MCP tool calls per account per hour, all its keys together (the demo key: per address).',
  }),
  RATE_LIMIT_MENTIONS_PER_HOUR: z.coerce.number({ error: 'must be a number' }).int().min(1).default(10).meta({
    defaultText: '`10`',
    meaning:
      'Research runs Slack or GitHub mentions may start per workspace or repository per hour; a mention past it gets a reply saying when to try again.',
  }),
  RATE_LIMIT_MENTIONS_PER_ACCOUNT_PER_HOUR: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1)
    .default(20)
    .meta({
      defaultText: '`20`',
      meaning: 'The same, per account, across all its linked workspaces and repositories.',
    }),
  RATE_LIMIT_LOGIN_FAILURES_PER_HOUR: z.coerce.number({ error: 'must be a number' }).int().min(1).default(10).meta({
    defaultText: '`10`',
    meaning:
      "Failed logins per client address and per email per hour (checked before the password; a login that succeeds does not count). A browser that logged in to the account before (its `sx_device` cookie, signed, 180 days) counts its own failures instead, so nobody else's guesses lock its owner out (decision 035). Sign-ups count against the address.",
  }),
  RATE_LIMIT_CONFIRMATIONS_PER_ACCOUNT_PER_HOUR: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1)
    .default(10)
    .meta({
      defaultText: '`10`',
      meaning:
        'Confirmation emails one account can have mailed per hour, to any addresses (`POST /api/email/addresses`); past it a 429 with `Retry-After`.',
    }),
  RATE_LIMIT_CONFIRMATIONS_PER_ADDRESS_PER_DAY: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1)
    .default(3)
    .meta({
      defaultText: '`3`',
      meaning:
        'Confirmation emails one address can be mailed per day, from any accounts; counted apart from the address, so removing and adding it again does not reset it.',
    }),
  RATE_LIMIT_KEY_FAILURES_PER_MINUTE: z.coerce.number({ error: 'must be a number' }).int().min(1).default(30).meta({
    defaultText: '`30`',
    meaning:
      'Failed API key checks per client address per minute (per process); over it, and with more than two checks at once from one address, 429.',
  }),
  API_KEYS_PER_ACCOUNT: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1)
    .max(1000)
    .default(20)
    .meta({ defaultText: '`20`', meaning: 'Active API keys an account may have; creating one more answers 409.' }),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .transform((url) => url.replace(/\/+$/, ''))
    .optional()
    .meta({
      defaultText: '`http://localhost:PORT`',
      meaning:
        'Where people reach this server: the links in Slack replies and GitHub comments point here (`https://sextant.example.com`).',
    }),
  SLACK_SIGNING_SECRET: z.string().min(1).optional().meta({
    defaultText: 'unset',
    meaning: "The Slack app's signing secret: checks `POST /api/webhooks/slack`. Unset: that endpoint answers 503.",
  }),
  SLACK_API_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .default('https://slack.com/api/')
    .transform((url) => (url.endsWith('/') ? url : `${url}/`))
    .meta({ defaultText: '`https://slack.com/api/`', meaning: "Slack's Web API (tests use a stub)." }),
  GITHUB_WEBHOOK_SECRET: z.string().min(1).optional().meta({
    defaultText: 'unset',
    meaning: "The GitHub webhook's secret: checks `POST /api/webhooks/github`. Unset: that endpoint answers 503.",
  }),
  GITHUB_TOKEN: z.string().min(1).optional().meta({
    defaultText: 'unset',
    meaning:
      "A token that may comment on the linked repositories' pull requests. Unset: replies to GitHub are not sent.",
  }),
  GITHUB_API_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .default('https://api.github.com')
    .transform((url) => url.replace(/\/+$/, ''))
    .meta({
      defaultText: '`https://api.github.com`',
      meaning: "GitHub's REST API; GitHub Enterprise is `https://<host>/api/v3` (tests use a stub).",
    }),
  // Email digests: a nodemailer transport URL (smtp://user:pass@host:587, smtps://... for TLS from
  // the start); unset, email is off and the API and dashboard say so.
  SMTP_URL: z
    .url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' })
    .optional()
    .meta({
      defaultText: 'unset',
      meaning:
        'Email digests: a nodemailer transport URL, e.g. `smtp://user:pass@host:587` (`smtps://` for TLS from the start). Unset: email is off, and the API and dashboard say so.',
    }),
  EMAIL_FROM: z
    .string()
    .min(3)
    .default('Sextant <sextant@localhost>')
    .meta({ defaultText: '`Sextant <sextant@localhost>`', meaning: 'The From of confirmation emails and digests.' }),
  // Outbound webhooks (server/notify/webhooks/). Attempt n waits WEBHOOK_RETRY_BASE * 2^(n-1),
  // at most WEBHOOK_RETRY_MAX; tests shorten the clock.
  WEBHOOK_RETRY_BASE: duration('30s').meta({
    defaultText: '`30s`',
    meaning:
      'How long a failed webhook delivery waits before its second attempt; each later wait doubles, up to `WEBHOOK_RETRY_MAX`.',
  }),
  WEBHOOK_RETRY_MAX: duration('24h').meta({
    defaultText: '`24h`',
    meaning: 'The longest wait between two attempts of one webhook delivery.',
  }),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number({ error: 'must be a number' }).int().min(1).max(100).default(15).meta({
    defaultText: '`15`',
    meaning: 'Attempts of one webhook event before it is given up (about three and a half days with the defaults).',
  }),
  /** Consecutive failed attempts (any of its events) after which an endpoint is disabled. */
  WEBHOOK_DISABLE_AFTER: z.coerce.number({ error: 'must be a number' }).int().min(1).max(10_000).default(30).meta({
    defaultText: '`30`',
    meaning:
      'Consecutive failed attempts (over all its events) after which a webhook endpoint is disabled, with the reason shown in the API and on the Webhooks page. A success resets the count.',
  }),
  WEBHOOK_TIMEOUT_SECONDS: z.coerce
    .number({ error: 'must be a number' })
    .positive()
    .max(120)
    .default(15)
    .meta({ defaultText: '`15`', meaning: 'How long one webhook attempt waits for the endpoint to answer.' }),
  /** Plain http endpoints: for tests and local development only. */
  WEBHOOK_ALLOW_HTTP: flag.default(false).meta({
    defaultText: '`false`',
    meaning:
      'Lets webhook endpoints and `webhookUrl` use plain `http://`. For tests and local development only: production endpoints must be https.',
  }),
  /** `host:port` endpoints admitted at private addresses: a test's own receiver on loopback. */
  WEBHOOK_ALLOW_HOSTS: allowHosts().meta({
    defaultText: 'unset',
    meaning:
      "For tests and local development only: `host:port` entries (like `READER_ALLOW_HOSTS`) a webhook may reach at a private address, such as a test's receiver on `127.0.0.1:PORT`. Every other loopback, private, link-local or metadata address is refused, at registration and again at each delivery.",
  }),
})

type ParsedEnv = z.infer<typeof ConfigSchema>

export type Config = Omit<
  ParsedEnv,
  | 'DATA_DIR'
  | 'LOCAL_DEV_AUTH'
  | 'PUBLIC_URL'
  | 'MAX_CONNECTIONS_PER_ADDRESS'
  | 'RUNS_PER_ACCOUNT'
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
  /** Runs one account may have going across every worker; 0 for no limit (unset: WORKER_CONCURRENCY). */
  RUNS_PER_ACCOUNT: number
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
    RUNS_PER_ACCOUNT: parsed.RUNS_PER_ACCOUNT ?? parsed.WORKER_CONCURRENCY,
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
