// Properties of the pages' forms (and the query strings pages read): whatever a browser, or
// something pretending to be one, posts, the answer is never a 5xx, and a refused post (4xx)
// changes nothing. Posted as React Router receives them: urlencoded or multipart, as a document
// request or a `.data` (client navigation) request, with or without a session and this site's Origin.
import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { logIn } from '#test/support/browser-session.ts'
import { encodeSegment, fuzzRuns, nastyString } from '#test/support/hostile-input.ts'
import { postBrief } from '#test/support/runs.ts'
import { expectSameState, snapshotState } from '#test/support/state.ts'

const { numRuns: NUM_RUNS, timeout: FUZZ_TIMEOUT } = fuzzRuns(60, 2000)

let app: TestApp
let user: Awaited<ReturnType<typeof createTestAccount>>
let cookie: string
const ids = { runs: [] as string[], series: [] as string[], topics: [] as string[], prefixes: [] as string[] }

beforeAll(async () => {
  app = await startTestApp({
    env: {
      RUN_ROLE: 'web',
      RATE_LIMIT_RUNS_PER_HOUR: '1000000',
      RATE_LIMIT_DEMO_PER_DAY: '1000000',
      RATE_LIMIT_LOGIN_FAILURES_PER_HOUR: '1000000',
    },
  })
  user = await createTestAccount(app.db)
  const other = await createTestAccount(app.db)
  cookie = await logIn(app.url, user.email, user.password)
  for (const account of [user, other]) {
    const run = await postBrief(app.fetch, account.auth, { topic: 'form fuzz', depth: 'quick' })
    const recurring = await postBrief(app.fetch, account.auth, { topic: 'form series', recurring: true })
    const view = await (await app.fetch(`/api/briefs/${recurring.body.runId}`, { headers: account.auth })).json()
    ids.runs.push(run.body.runId)
    ids.series.push(view.recurring.seriesId)
  }
  ids.prefixes.push(user.prefix.replace(/./, 'z'), other.prefix)
})
afterAll(() => app.stop())

/** A form value: usually a plausible one for the field, otherwise anything. */
function field(...plausible: string[]): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...plausible) },
    { weight: 3, arbitrary: nastyString },
    fc.constant(undefined),
  )
}

type Form = { path: fc.Arbitrary<string>; fields: Record<string, fc.Arbitrary<string | undefined>>; session: boolean }

const forms: Record<string, () => Form> = {
  signup: () => ({
    path: fc.constant('/signup'),
    fields: {
      email: field('new@example.com', 'not-an-email', user.email),
      password: field('long enough password', 'short'),
      redirectTo: field('/dashboard', '//evil.example', 'https://evil.example', '/\\evil'),
    },
    session: false,
  }),
  login: () => ({
    path: fc.constant('/login'),
    fields: {
      email: field(user.email, 'nobody@example.com'),
      password: field(user.password, 'wrong password'),
      redirectTo: field('/dashboard/keys', '//evil.example'),
    },
    session: false,
  }),
  'dashboard brief': () => ({
    path: fc.constant('/dashboard'),
    fields: {
      topic: field('sodium batteries', ''),
      objective: field('costs', ''),
      focus: field('grid, cars', ''),
      depth: field('quick', 'deep', 'fast'),
      timeframe: field('7d', 'all', '1y'),
      reportStyle: field('executive', 'framework', 'poem'),
      recurring: field('on'),
      frameworkId: field('pestle', 'swot', 'nonsense'),
      maxTokens: field('50,000', '1e12', '0', '12.5', ''),
      maxCostDollars: field('$0.50', '0.125', '-1', '1e3', ''),
      source: field('slack', 'dashboard'),
      cadence: field('', '6h', 'custom', 'cron', '59m'),
      every: field('12h', '30m', '31d', 'soon', ''),
      cron: field('0 9 * * 1', '* * * * *', 'not cron', ''),
      timeZone: field('Europe/Berlin', 'Mars/Olympus', ''),
      notify: field('changes', 'always', 'never'),
    },
    session: true,
  }),
  keys: () => ({
    path: fc.constant('/dashboard/keys'),
    fields: { intent: field('revoke', 'create'), name: field('laptop', ''), prefix: field(...ids.prefixes) },
    session: true,
  }),
  series: () => ({
    path: fc.constant('/dashboard/series'),
    fields: {
      intent: field('pause', 'resume', 'stop', 'update', 'run', 'explode'),
      seriesId: field(...ids.series),
      cadence: field('', '6h', 'custom', 'cron', '59m'),
      every: field('12h', '30m', 'soon', ''),
      cron: field('0 9 * * 1', '* * * * *', 'not cron', ''),
      timeZone: field('Europe/Berlin', 'Mars/Olympus', ''),
      notify: field('changes', 'always', 'never'),
    },
    session: true,
  }),
  'run cancel': () => ({
    path: fc.oneof(
      fc.constantFrom(...ids.runs).map((id) => `/dashboard/runs/${id}`),
      nastyString.map((text) => `/dashboard/runs/${encodeSegment(text)}`),
    ),
    fields: { intent: field('cancel', 'explode') },
    session: true,
  }),
  trial: () => ({
    path: fc.constant('/trial'),
    fields: { topic: field('tidal power', ''), objective: field('costs', ''), timeframe: field('30d', 'forever') },
    session: false,
  }),
  logout: () => ({ path: fc.constant('/logout'), fields: {}, session: false }),
}

function encode(fields: Record<string, string | undefined>, extra: Array<[string, string]>, multipart: boolean) {
  const entries = [
    ...Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ...extra,
  ]
  if (!multipart) return new URLSearchParams(entries)
  const form = new FormData()
  for (const [name, value] of entries) form.append(name, value)
  return form
}

for (const [name, makeForm] of Object.entries(forms)) {
  test(`${name} form: never a 5xx, and a refused post changes nothing`, { timeout: FUZZ_TIMEOUT }, async () => {
    const form = makeForm()
    const post = fc.record({
      path: form.path,
      fields: fc.record(form.fields, { requiredKeys: [] }),
      extra: fc.array(fc.tuple(nastyString, nastyString), { maxLength: 2 }),
      encoding: fc.constantFrom('urlencoded', 'urlencoded', 'multipart', 'json', 'none', 'broken multipart'),
      dataRequest: fc.boolean(),
      origin: fc.oneof({ weight: 5, arbitrary: fc.constant('same') }, fc.constantFrom('none', 'https://evil.example')),
      // Pages that need a session usually get ours; the others get garbage cookies too.
      cookie: form.session
        ? fc.oneof({ weight: 5, arbitrary: fc.constant(cookie) }, fc.constantFrom('', 'sx_session=forged'))
        : fc.oneof(
            fc.constant(''),
            nastyString.map((text) => `sx_session=${encodeSegment(text)}; sx_trial=${encodeSegment(text)}`),
          ),
    })
    await fc.assert(
      fc.asyncProperty(post, async (request) => {
        const before = await snapshotState(app.db)
        const headers: Record<string, string> = {}
        if (request.cookie) headers.Cookie = request.cookie
        if (request.origin === 'same') headers.Origin = new URL(app.url).origin
        else if (request.origin !== 'none') headers.Origin = request.origin
        let body: BodyInit | undefined
        if (request.encoding === 'json') {
          body = JSON.stringify(request.fields)
          headers['Content-Type'] = 'application/json'
        } else if (request.encoding === 'broken multipart') {
          body = `--x\r\nContent-Disposition: form-data; name="topic"\r\n\r\n${JSON.stringify(request.fields)}`
          headers['Content-Type'] = 'multipart/form-data; boundary=x'
        } else if (request.encoding !== 'none') {
          body = encode(request.fields, request.extra, request.encoding === 'multipart')
        }
        const path = request.dataRequest ? `${request.path}.data` : request.path
        const response = await app.fetch(path, { method: 'POST', headers, body, redirect: 'manual' })
        const text = await response.text()
        const what = `${name}: POST ${path} ${request.encoding} ${JSON.stringify(request.fields).slice(0, 300)} → ${response.status} ${text.slice(0, 300)}`
        expect(response.status, what).toBeLessThan(500)
        if (response.status >= 400) expectSameState(await snapshotState(app.db), before, what)
      }),
      { numRuns: NUM_RUNS },
    )
  })
}

test('the page query strings (topic search, compare, trial run, login redirect) never answer a 5xx', {
  timeout: FUZZ_TIMEOUT,
}, async () => {
  const query = fc.record({
    path: fc.constantFrom('/dashboard/topics', '/dashboard/topics/compare', '/trial', '/login', '/dashboard/runs/x'),
    pairs: fc.array(fc.tuple(fc.constantFrom('q', 'a', 'b', 'run', 'redirectTo', 'lastEventId'), nastyString), {
      maxLength: 3,
    }),
  })
  await fc.assert(
    fc.asyncProperty(query, async ({ path, pairs }) => {
      const before = await snapshotState(app.db)
      const url = `${path}?${new URLSearchParams(pairs.map(([key, value]) => [key, value.replace(/[\ud800-\udfff]/g, '')]))}`
      const response = await app.fetch(url, { headers: { Cookie: cookie }, redirect: 'manual' })
      const text = await response.text()
      expect(response.status, `${url} → ${response.status} ${text.slice(0, 300)}`).toBeLessThan(500)
      expectSameState(await snapshotState(app.db), before, url)
    }),
    { numRuns: NUM_RUNS },
  )
})
