// Email digests against a real SMTP server in the test process (smtp-server; each message parsed
// with mailparser): an address is verified by the link mailed to it; a series that sends digests
// mails each run worth telling, with its delta, to verified addresses only; its unsubscribe link
// works without signing in and stops the next digest; a quiet run of a notify:changes series sends
// nothing. Runs use the stub providers on a web that changes between runs (test/support/changing-web.ts).
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp } from '#test/support/app.ts'
import { logIn } from '#test/support/browser-session.ts'
import { AFTER, BEFORE, CHANGING_TOPIC } from '#test/support/changing-web.ts'
import { type ProviderApp, startProviderApp } from '#test/support/provider-app.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import type { StubExaDocument } from '#test/support/stub-exa.ts'
import { type StubSmtp, startStubSmtp } from '#test/support/stub-smtp.ts'

type Auth = Record<string, string>

let smtp: StubSmtp
let stubs: ProviderApp
const documents: StubExaDocument[] = []
beforeAll(async () => {
  smtp = await startStubSmtp()
  stubs = await startProviderApp({
    documents,
    env: { SMTP_URL: smtp.url, EMAIL_FROM: 'Sextant <digests@sextant.test>' },
  })
})
afterAll(async () => {
  await stubs?.stop()
  await smtp?.close()
})

const api = (path: string, auth: Auth, init: RequestInit = {}) =>
  stubs.app.fetch(path, { ...init, headers: { ...auth, 'Content-Type': 'application/json', ...init.headers } })

/** The path and query of the first link in `text` to `path` on this server (PUBLIC_URL is localhost:0 in tests). */
function linkIn(text: string, path: string): string {
  const match = new RegExp(`https?://[^\\s"<>]+${path}\\?token=[^\\s"<>]+`).exec(text)
  if (!match) throw new Error(`no ${path} link in:\n${text}`)
  const url = new URL(match[0].replaceAll('&amp;', '&'))
  return `${url.pathname}${url.search}`
}

async function addAddress(auth: Auth, address: string) {
  return api('/api/email/addresses', auth, { method: 'POST', body: JSON.stringify({ address }) })
}

async function addVerifiedAddress(auth: Auth, address: string): Promise<string> {
  const added = await addAddress(auth, address)
  expect(added.status).toBe(202)
  const [confirmation] = await smtp.waitFor(address)
  const confirmed = await stubs.app.fetch(linkIn(confirmation?.text ?? '', '/email/confirm'))
  expect(confirmed.status).toBe(200)
  return ((await added.json()) as { addressId: string }).addressId
}

test('the confirmation email arrives, and its link verifies the address once, without signing in', async () => {
  const user = await createTestAccount(stubs.app.db)
  const added = await addAddress(user.auth, 'Reader@Example.com')
  expect(added.status).toBe(202)
  const view = await added.json()
  expect(view).toMatchObject({ address: 'reader@example.com', verified: false })

  const [mail] = await smtp.waitFor('reader@example.com')
  expect(mail?.subject).toMatch(/confirm/i)
  const link = linkIn(mail?.text ?? '', '/email/confirm')
  expect(linkIn(mail?.html ?? '', '/email/confirm')).toBe(link)
  // Only the token's hash is stored.
  const token = new URL(link, 'http://x').searchParams.get('token') ?? ''
  const stored = await stubs.app.db.selectFrom('email_addresses').selectAll().execute()
  expect(JSON.stringify(stored)).not.toContain(token)

  const list = async () => (await (await api('/api/email/addresses', user.auth)).json()) as Record<string, unknown>
  expect(await list()).toEqual({ enabled: true, addresses: [expect.objectContaining({ verified: false })] })
  // Asking again within a minute mails nothing more.
  expect((await addAddress(user.auth, 'reader@example.com')).status).toBe(429)

  const confirmed = await stubs.app.fetch(link)
  expect(confirmed.status).toBe(200)
  expect(await confirmed.text()).toContain('reader@example.com')
  expect(await list()).toEqual({
    enabled: true,
    addresses: [
      { addressId: view.addressId, address: 'reader@example.com', verified: true, createdAt: expect.any(String) },
    ],
  })
  // Single-use.
  expect((await stubs.app.fetch(link)).status).toBe(404)
  // Another account sees none of it, and cannot remove it.
  const other = await createTestAccount(stubs.app.db)
  expect(((await (await api('/api/email/addresses', other.auth)).json()) as { addresses: [] }).addresses).toEqual([])
  const foreign = await api(`/api/email/addresses/${view.addressId}`, other.auth, { method: 'DELETE' })
  expect(foreign.status).toBe(404)
  expect((await api(`/api/email/addresses/${view.addressId}`, user.auth, { method: 'DELETE' })).status).toBe(204)
  expect(((await list()) as { addresses: [] }).addresses).toEqual([])
})

test('bad input: a malformed address, an unknown or missing token, an unknown id are 4xx', async () => {
  const user = await createTestAccount(stubs.app.db)
  for (const address of ['not an address', 'a@', '', `${'x'.repeat(250)}@example.com`]) {
    const response = await addAddress(user.auth, address)
    expect(response.status, address).toBe(400)
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
  }
  expect((await api('/api/email/addresses', user.auth, { method: 'POST', body: '{"address":1}' })).status).toBe(400)
  expect((await stubs.app.fetch('/email/confirm?token=not-a-token')).status).toBe(404)
  expect((await stubs.app.fetch('/email/confirm')).status).toBe(400)
  expect((await stubs.app.fetch('/email/unsubscribe?token=a.b.c')).status).toBe(404)
  expect((await stubs.app.fetch('/email/unsubscribe')).status).toBe(400)
  const forged = `${crypto.randomUUID()}.${crypto.randomUUID()}.${Buffer.alloc(32).toString('base64url')}`
  expect((await stubs.app.fetch(`/email/unsubscribe?token=${forged}`, { method: 'POST' })).status).toBe(404)
  expect((await api('/api/email/addresses/nope', user.auth, { method: 'DELETE' })).status).toBe(404)
  expect((await api(`/api/email/addresses/${crypto.randomUUID()}`, user.auth, { method: 'DELETE' })).status).toBe(404)
  expect(
    await stubs.app.db.selectFrom('email_addresses').select('id').where('account_id', '=', user.account.id).execute(),
  ).toEqual([])
})

/** The run's digest row once the job has finished with it (marked just after the mail server took it). */
async function settledDigest(runId: string) {
  for (let i = 0; ; i++) {
    const row = await stubs.app.db
      .selectFrom('deliveries')
      .select(['status', 'parts_sent', 'target'])
      .where('run_id', '=', runId)
      .where('channel', '=', 'email')
      .executeTakeFirstOrThrow()
    if (row.status !== 'pending' || i >= 600) return row
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function runNow(auth: Auth, seriesId: string) {
  const response = await api(`/api/series/${seriesId}/run`, auth, { method: 'POST' })
  expect(response.status).toBe(202)
  const { runId } = (await response.json()) as { runId: string }
  expect((await waitForRun(stubs.app.fetch, auth, runId)).status).toBe('complete')
  return runId
}

test('a series run worth telling mails its delta to verified addresses; unsubscribing stops the next; a quiet run sends nothing', async () => {
  const user = await createTestAccount(stubs.app.db)
  const [first, second, unverified] = ['first@example.com', 'second@example.com', 'unverified@example.com']
  const firstId = await addVerifiedAddress(user.auth, first)
  const secondId = await addVerifiedAddress(user.auth, second)
  expect((await addAddress(user.auth, unverified)).status).toBe(202)
  await smtp.waitFor(unverified) // its confirmation, never used

  documents.splice(0, documents.length, ...Object.values(BEFORE))
  const { response, body } = await postBrief(stubs.app.fetch, user.auth, {
    topic: CHANGING_TOPIC,
    depth: 'quick',
    timeframe: '30d',
    recurring: true,
    every: '1h',
  })
  expect(response.status).toBe(202)
  const baseline = await waitForRun(stubs.app.fetch, user.auth, body.runId)
  const seriesId = (baseline as unknown as { recurring: { seriesId: string } }).recurring.seriesId
  const patched = await api(`/api/series/${seriesId}`, user.auth, {
    method: 'PATCH',
    body: JSON.stringify({ emailDigest: true }),
  })
  expect(patched.status).toBe(200)
  expect(await patched.json()).toMatchObject({ emailDigest: true, notify: 'changes' })
  // The recurring page says so on the series' card.
  const cookie = await logIn(stubs.app.url, user.email, user.password)
  const card = await (await stubs.app.fetch('/dashboard/series', { headers: { Cookie: cookie } })).text()
  expect(card).toContain('mailed to your verified addresses')
  expect(
    (await api(`/api/series/${seriesId}`, user.auth, { method: 'PATCH', body: '{"emailDigest":"yes"}' })).status,
  ).toBe(400)

  // The web changes: one figure updated, one claim contradicted, one new.
  documents.splice(0, documents.length, ...Object.values(AFTER))
  const changed = await runNow(user.auth, seriesId)
  const [digest] = (await smtp.waitFor(first, 2)).slice(1)
  await smtp.waitFor(second, 2)
  expect(digest?.subject).toBe(`${CHANGING_TOPIC}: 1 new, 1 updated, 1 contradicted`)
  for (const body of [digest?.text ?? '', digest?.html ?? '']) {
    expect(body).toContain(AFTER.recycling.text)
    expect(body).toContain(AFTER.plant.text)
    expect(body).toContain(AFTER.price.url)
    expect(body).toContain(`/dashboard/runs/${changed}`)
  }
  expect(digest?.text).toContain(`- ${BEFORE.price.text} -> ${AFTER.price.text}`)
  expect(digest?.html).toContain(`<del>${BEFORE.price.text}</del>`)
  expect(digest?.html).toContain(`<a href="${AFTER.price.url}">`)
  const unsubscribe = linkIn(digest?.text ?? '', '/email/unsubscribe')
  const headers = digest?.rawHeaders ?? ''
  expect(headers).toMatch(
    new RegExp(`^List-Unsubscribe: <https?://[^>]+${unsubscribe.replace(/[.?]/g, '\\$&')}>$`, 'm'),
  )
  expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m)
  // The unverified address was never a recipient.
  expect(await settledDigest(changed)).toEqual({
    status: 'sent',
    parts_sent: 2,
    target: { seriesId, addressIds: [firstId, secondId] },
  })
  expect(smtp.to(unverified)).toHaveLength(1) // its confirmation only

  // Nothing new on the web: the run is recorded, and no digest is queued or sent.
  const quiet = await runNow(user.auth, seriesId)
  const rows = await stubs.app.db.selectFrom('deliveries').select('id').where('run_id', '=', quiet).execute()
  expect(rows).toEqual([])

  // The first address unsubscribes from this series (a mail client has no session).
  const stopped = await stubs.app.fetch(unsubscribe)
  expect(stopped.status).toBe(200)
  documents.unshift({
    url: 'https://news.example/faradion-line',
    title: 'Sodium-ion batteries: faradion-line',
    publishedDate: new Date().toISOString(),
    text: 'Faradion started a sodium-ion cell line in Sheffield with 2 GWh of yearly capacity.',
  })
  const next = await runNow(user.auth, seriesId)
  const [, , latest] = await smtp.waitFor(second, 3)
  expect(latest?.text).toContain(`/dashboard/runs/${next}`)
  const sent = await settledDigest(next)
  // Only the address still subscribed was a recipient.
  expect(sent).toEqual({ status: 'sent', parts_sent: 1, target: { seriesId, addressIds: [secondId] } })
  expect(smtp.to(first)).toHaveLength(2) // the confirmation and the one digest before unsubscribing
  expect(smtp.to(unverified)).toHaveLength(1)
})

test('without SMTP_URL email is off: the list says so, and adding an address or a digest is a 503', async () => {
  const app = await startTestApp({ env: { RUN_ROLE: 'web' } })
  try {
    const user = await createTestAccount(app.db)
    const auth = { ...user.auth, 'Content-Type': 'application/json' }
    expect(await (await app.fetch('/api/email/addresses', { headers: auth })).json()).toEqual({
      enabled: false,
      addresses: [],
    })
    const added = await app.fetch('/api/email/addresses', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ address: 'reader@example.com' }),
    })
    expect(added.status).toBe(503)
    expect((await added.json()).detail).toContain('SMTP_URL')
    const { body } = await postBrief(app.fetch, user.auth, { topic: 'grid storage', recurring: true })
    const run = await (await app.fetch(`/api/briefs/${body.runId}`, { headers: auth })).json()
    const patched = await app.fetch(`/api/series/${run.recurring.seriesId}`, {
      method: 'PATCH',
      headers: auth,
      body: JSON.stringify({ emailDigest: true }),
    })
    expect(patched.status).toBe(503)
    expect(await app.db.selectFrom('email_addresses').select('id').execute()).toEqual([])
  } finally {
    await app.stop()
  }
})

test('removing and adding an address again cannot flood it: the fourth confirmation in a day is a 429 saying when, from any account', async () => {
  const user = await createTestAccount(stubs.app.db)
  const victim = `victim-${crypto.randomUUID()}@example.com`
  for (let i = 0; i < 3; i++) {
    const added = await addAddress(user.auth, victim)
    expect(added.status).toBe(202)
    await smtp.waitFor(victim, i + 1)
    const { addressId } = (await added.json()) as { addressId: string }
    expect((await api(`/api/email/addresses/${addressId}`, user.auth, { method: 'DELETE' })).status).toBe(204)
  }
  const fourth = await addAddress(user.auth, victim)
  expect(fourth.status).toBe(429)
  expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0)
  expect(await fourth.json()).toMatchObject({
    limit: 'confirmations-address',
    detail: expect.stringMatching(/^An address can be mailed 3 confirmation emails per day\. Try again in/),
  })
  // Another account is held to the same count: it is the address that is protected.
  const other = await createTestAccount(stubs.app.db)
  expect((await addAddress(other.auth, victim)).status).toBe(429)
  expect(smtp.messages.filter((message) => message.to.includes(victim))).toHaveLength(3)
})

test('an account can have ten confirmation emails mailed an hour, whatever it removes in between', async () => {
  const user = await createTestAccount(stubs.app.db)
  const ids: string[] = []
  for (let i = 0; i < 10; i++) {
    const added = await addAddress(user.auth, `many-${i}-${crypto.randomUUID()}@example.com`)
    expect(added.status).toBe(202)
    ids.push(((await added.json()) as { addressId: string }).addressId)
  }
  expect((await api(`/api/email/addresses/${ids[0]}`, user.auth, { method: 'DELETE' })).status).toBe(204)
  const eleventh = await addAddress(user.auth, `one-more-${crypto.randomUUID()}@example.com`)
  expect(eleventh.status).toBe(429)
  expect(await eleventh.json()).toMatchObject({ limit: 'confirmations-account' })
})
