import { expect, test } from 'vitest'
import { briefFromMention, githubMentionText, slackMentionText } from '#server/chat/mention.ts'

test('a mention with every option becomes the matching brief', () => {
  const parsed = briefFromMention(
    'sodium-ion batteries depth:quick style:bullet framework:pestle timeframe:7d recurring',
    'slack',
  )
  expect(parsed).toEqual({
    ok: true,
    brief: {
      topic: 'sodium-ion batteries',
      depth: 'quick',
      reportStyle: 'bullet',
      frameworkId: 'pestle',
      timeframe: '7d',
      recurring: true,
      source: 'slack',
    },
  })
})

test('without options the brief has the defaults, and options may come anywhere', () => {
  expect(briefFromMention('grid storage in Spain', 'github')).toEqual({
    ok: true,
    brief: {
      topic: 'grid storage in Spain',
      depth: 'deep',
      reportStyle: 'executive',
      timeframe: '30d',
      recurring: false,
      source: 'github',
    },
  })
  const early = briefFromMention('depth:QUICK heat pumps Timeframe:90d', 'slack')
  expect(early).toMatchObject({ ok: true, brief: { topic: 'heat pumps', depth: 'quick', timeframe: '90d' } })
})

test('"recurring" inside the topic stays in the topic; at the end it is the option', () => {
  expect(briefFromMention('recurring revenue models depth:quick', 'slack')).toMatchObject({
    ok: true,
    brief: { topic: 'recurring revenue models', recurring: false },
  })
  expect(briefFromMention('SaaS churn recurring:false', 'slack')).toMatchObject({
    ok: true,
    brief: { topic: 'SaaS churn', recurring: false },
  })
  expect(briefFromMention('SaaS churn recurring:maybe', 'slack')).toEqual({
    ok: false,
    message: expect.stringContaining('recurring'),
  })
})

test('bad options and empty topics get a message naming the option and the usage', () => {
  const depth = briefFromMention('tidal power depth:fast', 'slack')
  expect(depth).toEqual({ ok: false, message: expect.stringMatching(/^depth: .*quick.*\(got "fast"\)/) })
  expect(depth.ok || depth.message).toContain('Usage: <topic> [depth:quick|deep]')

  const framework = briefFromMention('tidal power framework:astrology', 'github')
  expect(framework).toEqual({ ok: false, message: expect.stringMatching(/^framework: unknown framework/) })

  const styleWithoutFramework = briefFromMention('tidal power style:framework', 'slack')
  expect(styleWithoutFramework).toEqual({
    ok: false,
    message: expect.stringMatching(/^framework: .*needs a frameworkId/),
  })

  expect(briefFromMention('   ', 'slack')).toEqual({ ok: false, message: expect.stringMatching(/^Tell me what/) })
  expect(briefFromMention('depth:quick', 'slack')).toEqual({ ok: false, message: expect.stringMatching(/^Tell me/) })
  expect(briefFromMention('x'.repeat(501), 'slack')).toEqual({ ok: false, message: expect.stringMatching(/^topic: /) })
})

test("Slack's markup is undone and the app's mention removed", () => {
  expect(slackMentionText('<@U0APP> heat pumps depth:quick')).toBe('heat pumps depth:quick')
  expect(
    slackMentionText('<@U0APP|sextant>   <https://example.com/a|this article> &amp; <@U123> in <#C42|energy>'),
  ).toBe('this article & @U123 in #energy')
  expect(slackMentionText('<@U0APP> prices &lt;$100 <https://x.example/> <!here>')).toBe(
    'prices <$100 https://x.example/ @here',
  )
})

test('a GitHub comment asks when a line, outside quotes, says @sextant research', () => {
  expect(githubMentionText('@sextant research WebAssembly GC depth:quick')).toBe('WebAssembly GC depth:quick')
  expect(githubMentionText('Looks good.\n\n@Sextant Research  rust async runtimes\nthanks')).toBe('rust async runtimes')
  expect(githubMentionText('> @sextant research old topic\nI agree')).toBeUndefined()
  expect(githubMentionText('@sextant-bot research not us')).toBeUndefined()
  expect(githubMentionText('ping @sextant about this')).toBeUndefined()
  expect(githubMentionText('@sextant research')).toBe('')
})

test('max-tokens and max-cost set the budgets, written as people write numbers', () => {
  expect(briefFromMention('tidal power max-tokens:50000 max-cost:0.50', 'slack')).toMatchObject({
    ok: true,
    brief: { topic: 'tidal power', maxTokens: 50_000, maxCostDollars: 0.5 },
  })
  expect(briefFromMention('Max-Tokens:1,000,000 tidal power MAX-COST:$2', 'github')).toMatchObject({
    ok: true,
    brief: { topic: 'tidal power', maxTokens: 1_000_000, maxCostDollars: 2 },
  })
  expect(briefFromMention('tidal power', 'slack')).toMatchObject({
    ok: true,
    brief: expect.not.objectContaining({ maxTokens: expect.anything() }),
  })
})

test('a budget out of range, fractional or not a number is refused with the range and the usage', () => {
  const cases: Array<[string, RegExp]> = [
    ['max-tokens:0', /^max-tokens: must be a whole number of tokens from 1,000 to 10,000,000 \(got "0"\)/],
    ['max-tokens:1e12', /^max-tokens: must be a whole number of tokens from 1,000 to 10,000,000 \(got "1e12"\)/],
    ['max-tokens:1500.5', /^max-tokens: must be a whole number of tokens from 1,000 to 10,000,000/],
    ['max-tokens:lots', /^max-tokens: must be a whole number of tokens from 1,000 to 10,000,000 \(got "lots"\)/],
    ['max-cost:-1', /^max-cost: must be an amount in dollars from 0.01 to 1,000, in whole cents \(got "-1"\)/],
    ['max-cost:0', /^max-cost: must be an amount in dollars from 0.01 to 1,000/],
    ['max-cost:0.125', /^max-cost: must be an amount in dollars from 0.01 to 1,000, in whole cents/],
    ['max-cost:5000', /^max-cost: must be an amount in dollars from 0.01 to 1,000/],
  ]
  for (const [option, message] of cases) {
    const parsed = briefFromMention(`tidal power ${option}`, 'slack')
    expect(parsed, option).toEqual({ ok: false, message: expect.stringMatching(message) })
    expect(parsed.ok || parsed.message, option).toContain('[max-tokens:<1000-10000000>] [max-cost:<0.01-1000>]')
  }
})

test('every, a quoted cron with its time zone, and notify set how a recurring brief repeats', () => {
  expect(briefFromMention('tidal power every:6h notify:always', 'slack')).toMatchObject({
    ok: true,
    brief: { topic: 'tidal power', recurring: true, every: '6h', notify: 'always' },
  })
  expect(briefFromMention('tidal power cron:"0 9 * * 1" tz:Europe/Berlin', 'github')).toMatchObject({
    ok: true,
    brief: { topic: 'tidal power', recurring: true, cron: '0 9 * * 1', timeZone: 'Europe/Berlin' },
  })
  // Slack curls the quotes a person types.
  expect(briefFromMention('tidal power cron:“30 8 * * *”', 'slack')).toMatchObject({
    ok: true,
    brief: { topic: 'tidal power', cron: '30 8 * * *' },
  })
  expect(briefFromMention('tidal power every:soon', 'slack')).toEqual({
    ok: false,
    message: expect.stringMatching(/^every: must be a duration like 6h, 1d or 30d \(got "soon"\)/),
  })
  expect(briefFromMention('tidal power tz:Mars/Olympus cron:"0 9 * * 1"', 'slack')).toEqual({
    ok: false,
    message: expect.stringMatching(/^tz: must be an IANA time zone/),
  })
  expect(briefFromMention('tidal power every:1d recurring:false', 'slack')).toEqual({
    ok: false,
    message: expect.stringContaining('every: every says how a recurring brief repeats'),
  })
})
