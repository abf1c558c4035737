// Text from web pages and models becomes markdown on the run page, in Slack and on GitHub. A page
// (or a model repeating it) must not be able to put a clickable link there that looks like
// Sextant's own: the only links that survive are inline links to the run's own sources. Everything
// else link-shaped is turned into plain text, to a fixed point, so that removing one link can never
// assemble another ("[[label](https://a.test)](https://evil.test)" loses both):
// - an image, and an inline link whose target is not an allowed URL, become their label text; a
//   "](" that does not open a valid target is broken apart;
// - reference definitions ("[x]: url" opening a line) are broken, so no reference link resolves;
// - autolinks ("<https://...>", "<a@b.c>") and Slack's "<url|label>" lose their angle brackets;
// - bare URLs, "www." addresses and e-mail domains, which GitHub and Slack link by themselves, are
//   defanged the way security reports write them: "https[:]//evil[.]test", "www[.]evil.test";
// - raw HTML tags with attributes ("<a href>", "<img src>": how HTML links and loads) get a space
//   after "<", which makes them text to any markdown renderer (API and MCP clients render reports
//   with renderers we do not know); "<topic>" and "a<b" stay as they are.
// This is the text policy, for markdown that leaves as text (stored reports, the API, MCP, GitHub,
// the export). Sextant's own renderers parse it once more into a tree and decide links there too
// (server/text/markdown/).
import { stripBidiControls } from '#server/text/bidi.ts'

// Private-use characters: placeholders here (U+E002/U+E003). Input never keeps any of U+E000 to
// U+E00F, so text cannot forge a placeholder.
const RESERVED = /[\uE000-\uE00F]/g
const OPEN = '\uE002'
const CLOSE = '\uE003'
const PLACEHOLDER = /\uE002(\d+)\uE003/g
// One pass almost always reaches the fixed point; the loop is for the rare text where removing one
// piece of syntax completes another (an autolink closed by a flattened link).
const MAX_PASSES = 8
const MAX_TARGET_CHARACTERS = 2048

// An autolink, or Slack's "<url|label>" (whose label may hold spaces): the target, then the label as text.
const ANGLE_AUTOLINK = /<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>|]*)(?:\|([^<>\n]*))?>/g
const ANGLE_EMAIL = /<([A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[^\s<>]*)>/g
const URL_AUTHORITY = /:\/\/([^/?#\s]*)/g
const DOT_IN_HOST = /\.(?=[\p{L}\p{N}_-])/gu
const WWW = /(www)\.(\(?)/gi
// The label with backslash escapes read as CommonMark reads them, and read naively as well.
const DEFINITION = /^([ \t>*+\-\d.)]*)\[((?:[^[\]\\]|\\[\s\S])*)\]:/gm
const DEFINITION_NAIVE = /^([ \t>*+\-\d.)]*)\[([^[\]\n]*)\]:/gm
const EMAIL_DOMAIN = /@([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+)/g
// An HTML tag name followed by what may come before an attribute.
const HTML_TAG_WITH_ATTRIBUTES = /<(?=[A-Za-z][A-Za-z0-9-]*[\s/])/g

type KeptLink = { label: string; url: string }

/**
 * Markdown with no clickable link except inline links whose target is exactly one of
 * `allowedUrls`; bidirectional controls removed. Idempotent.
 */
export function sanitizeMarkdown(markdown: string, allowedUrls: Iterable<string> = []): string {
  const allowed = new Set(allowedUrls)
  let text = stripBidiControls(markdown).replace(RESERVED, '')
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const next = sanitizePass(text, allowed)
    if (next === text) return text
    text = next
  }
  // Never reached by any text we know of; if it is, no bracket means no link of any kind.
  return sanitizePass(text.replace(/[[\]<>]/g, ' '), new Set())
}

function sanitizePass(input: string, allowed: ReadonlySet<string>): string {
  const kept: KeptLink[] = []
  let text = input
    .replace(ANGLE_AUTOLINK, (_, url: string, label: string | undefined) =>
      label === undefined ? url : `${url} ${label}`,
    )
    .replace(ANGLE_EMAIL, '$1')
  text = flattenInlineLinks(text, allowed, kept)
  text = defang(breakDefinitions(text))
  return text.replace(PLACEHOLDER, (_, index: string) => {
    const link = kept[Number(index)] as KeptLink
    return `[${link.label}](${link.url})`
  })
}

/**
 * `[label](target)`: kept (as a placeholder) when allowed, else its label; inner links first. One
 * scan: `out` holds a string per character written, so a flattened link's "[" is blanked in place.
 */
function flattenInlineLinks(text: string, allowed: ReadonlySet<string>, kept: KeptLink[]): string {
  const out: string[] = []
  const opens: number[] = [] // where in `out` each "[" not yet closed is
  let index = 0
  while (index < text.length) {
    const char = text[index] as string
    if (char === '[') opens.push(out.length)
    if (char !== ']' || text[index + 1] !== '(') {
      if (char === ']') opens.pop()
      out.push(char)
      index += 1
      continue
    }
    const open = opens.pop()
    const end = inlineTargetEnd(text, index + 1)
    if (end < 0) {
      // Not a link to CommonMark; a space makes sure no simpler renderer reads one either.
      out.push('] (')
      index += 2
      continue
    }
    const target = text.slice(index + 2, end - 1)
    index = end
    if (open === undefined) continue // a stray "](target)": the target goes
    const bang = previousWritten(out, open)
    const image = out[bang] === '!'
    if (!image && allowed.has(target)) {
      const label = keptLabel(out.slice(open + 1).join(''), kept)
      if (label.trim() && !/[[\]]/.test(label)) {
        kept.push({ label, url: target })
        out.length = open
        out.push(`${OPEN}${kept.length - 1}${CLOSE}`)
        continue
      }
    }
    out[open] = ''
    if (image) out[bang] = ''
  }
  return out.join('')
}

/** The index of the last non-blank entry of `out` before `index`, or -1. */
function previousWritten(out: string[], index: number): number {
  let previous = index - 1
  while (previous >= 0 && out[previous] === '') previous -= 1
  return previous
}

/** A kept link's label: links nested in it become their text, and it is defanged like the rest. */
function keptLabel(label: string, kept: KeptLink[]): string {
  const flat = label.replace(PLACEHOLDER, (_, index: string) => (kept[Number(index)] as KeptLink).label)
  return defang(breakDefinitions(flat))
}

/**
 * Where an inline link's "(target "title")" that starts at `paren` ends (just past its ")"), as
 * CommonMark reads it, or -1 when it is not one.
 */
function inlineTargetEnd(text: string, paren: number): number {
  // Longer targets and titles are read as no link, and so broken apart: the safe side, and it keeps
  // a text of many "](" from costing time in the square of its length.
  const limit = Math.min(text.length, paren + MAX_TARGET_CHARACTERS)
  let index = skipSpace(text, paren + 1)
  if (text[index] === '<') {
    const close = text.indexOf('>', index)
    if (close < 0 || close > limit || /[\n<]/.test(text.slice(index + 1, close))) return -1
    index = close + 1
  } else {
    let depth = 0
    for (; index < limit; index++) {
      const char = text[index] as string
      if (char === '\\') {
        index += 1
        continue
      }
      if (char <= ' ' || char === '\x7f') break // spaces and ASCII controls end a target
      if (char === '(') depth += 1
      else if (char === ')') {
        if (depth === 0) break
        depth -= 1
      }
    }
  }
  index = skipSpace(text, index)
  const quote = text[index]
  if (quote === '"' || quote === "'" || quote === '(') {
    const closer = quote === '(' ? ')' : quote
    for (index += 1; index < limit && text[index] !== closer; index++) {
      if (text[index] === '\\') index += 1
    }
    if (index >= limit) return -1
    index = skipSpace(text, index + 1)
  }
  return text[index] === ')' ? index + 1 : -1
}

/** Spaces and tabs, with at most one line break among them. */
function skipSpace(text: string, from: number): number {
  return from + (/^[ \t]*(?:\r?\n)?[ \t]*/.exec(text.slice(from, from + 200))?.[0].length ?? 0)
}

/**
 * "[x]: url" at the start of a line (in a list or quote too) defines a link for "[x]"; with a space
 * before the colon it is text. Elsewhere "]:" is prose ("costs fell [1]: ...") and stays.
 */
function breakDefinitions(text: string): string {
  return text.replace(DEFINITION, '$1[$2] :').replace(DEFINITION_NAIVE, '$1[$2] :')
}

/** Bare URLs, www. addresses, e-mail addresses and HTML tags, written so no renderer links them. */
function defang(text: string): string {
  return text
    .replace(HTML_TAG_WITH_ATTRIBUTES, '< ')
    .replace(URL_AUTHORITY, (_, authority: string) => `[:]//${authority.replace(DOT_IN_HOST, '[.]')}`)
    .replace(WWW, (_, www: string, paren: string) => (paren ? `${www}[.] (` : `${www}[.]`))
    .replace(EMAIL_DOMAIN, (_, domain: string) => `@${domain.replaceAll('.', '[.]')}`)
}
