import { expect, test } from 'vitest'
import { signSlackRequest, verifySlackSignature } from '#server/chat/slack/verify.ts'

const secret = '8f742231b10e8888abcd99yyyzzz85a5'
const now = new Date('2026-11-21T12:00:00Z')
const at = (secondsFromNow: number) => Math.floor(now.getTime() / 1000) + secondsFromNow
const body = 'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&command=%2Fweather'

function check(timestamp: number | string | undefined, signature: string | undefined, payload = body) {
  return verifySlackSignature({
    secret,
    body: Buffer.from(payload),
    timestamp: timestamp === undefined ? undefined : String(timestamp),
    signature,
    now,
  })
}

test("Slack's documented example signature verifies", () => {
  // From Slack's "Verifying requests from Slack": its secret, timestamp and slash-command body.
  const body = [
    'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V',
    '&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=',
    '&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN',
    '&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
  ].join('')
  const documented = 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503'
  const result = verifySlackSignature({
    secret,
    body: Buffer.from(body),
    timestamp: '1531420618',
    signature: documented,
    now: new Date(1531420618 * 1000),
  })
  expect(result).toEqual({ ok: true })
  expect(signSlackRequest(secret, 1531420618, body)).toBe(documented)
})

test('a fresh, correctly signed request passes', () => {
  expect(check(at(0), signSlackRequest(secret, at(0), body))).toEqual({ ok: true })
  expect(check(at(-299), signSlackRequest(secret, at(-299), body))).toEqual({ ok: true })
  expect(check(at(299), signSlackRequest(secret, at(299), body))).toEqual({ ok: true })
})

test('stale and future timestamps are refused even with a valid signature', () => {
  for (const offset of [-301, 301, -86_400]) {
    const result = check(at(offset), signSlackRequest(secret, at(offset), body))
    expect(result).toEqual({ ok: false, reason: expect.stringContaining('five minutes') })
  }
})

test('a forged, tampered or missing signature is refused', () => {
  const ts = at(0)
  expect(check(ts, signSlackRequest('another secret', ts, body)).ok).toBe(false)
  expect(check(ts, signSlackRequest(secret, ts, body), `${body}&x=1`).ok).toBe(false)
  expect(check(ts, signSlackRequest(secret, ts - 1, body)).ok).toBe(false) // signed for another timestamp
  expect(check(ts, 'v0=deadbeef').ok).toBe(false)
  expect(check(ts, undefined)).toEqual({ ok: false, reason: expect.stringContaining('required') })
  expect(check(undefined, signSlackRequest(secret, ts, body)).ok).toBe(false)
  expect(check('soon', 'v0=00').ok).toBe(false)
})
