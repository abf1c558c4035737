// What a renderer could turn into a clickable link, over-approximated: GitHub-flavoured markdown
// (inline, reference and angle links, bare URLs, www. and e-mail autolinks, raw HTML attributes)
// and Slack mrkdwn (<url|label>, and the bare URLs Slack links by itself). Tests assert that every
// target found is one they allow; anything merely link-shaped counts, so the check errs toward failing.

const INLINE_TARGET = /\]\(\s*<?([^)\s>]*)/g
const ANGLE = /<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>|]*)(?:\|[^>\n]*)?>/g
const ANGLE_EMAIL = /<([A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9][^\s<>]*)>/g
const HTML_ATTRIBUTE =
  /<[A-Za-z][A-Za-z0-9-]*[\s/][^>]*?(?<=[\s/"'])(?:href|src|action|formaction)\s*=\s*["']?([^"'\s>]*)/gi
const BARE_URL = /[A-Za-z0-9+.-]*:\/\/[^\s<>|)\]]*/g
const WWW = /www\.[^\s<>|)\]]*/gi
const EMAIL = /[A-Za-z0-9.+_-]*@[A-Za-z0-9_-]+\.[A-Za-z0-9_-][^\s<>|)\]]*/g
const DEFINITION = /^[ \t>*+\-\d.)]*\[[^[\]\n]*\]:\s*(\S*)/gm

export function clickableTargets(text: string, dialect: 'markdown' | 'mrkdwn' = 'markdown'): string[] {
  const targets: string[] = []
  const collect = (pattern: RegExp, source: string, group = 1) => {
    for (const match of source.matchAll(pattern)) targets.push(match[group] ?? match[0])
  }
  collect(INLINE_TARGET, text)
  collect(ANGLE, text)
  collect(ANGLE_EMAIL, text)
  collect(HTML_ATTRIBUTE, text)
  if (dialect === 'markdown') collect(DEFINITION, text)
  // Link targets and Slack's <url|label> are out of the way before bare URLs are looked for.
  const prose = text
    .replace(/\]\([^)]*\)?/g, '] ')
    .replace(ANGLE, ' ')
    .replace(ANGLE_EMAIL, ' ')
  collect(BARE_URL, prose, 0)
  collect(WWW, prose, 0)
  collect(EMAIL, prose, 0)
  return targets
}

/** The targets found that are not in `allowed`. */
export function unexpectedTargets(
  text: string,
  allowed: Iterable<string>,
  dialect: 'markdown' | 'mrkdwn' = 'markdown',
): string[] {
  const ok = new Set(allowed)
  return clickableTargets(text, dialect).filter((target) => !ok.has(target))
}
