// Text the MCP tools write for a model to read: what a caller sent, quoted so it cannot smuggle
// control characters (or a fake line of our own) into the answer, and a report's sources as lines.
import { sanitizeMarkdown } from '#server/text/markdown-links.ts'

const QUOTED_MAX_CHARACTERS = 100
const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu

/** Control and formatting characters (newlines, bidi overrides...) written as \u{...}, not echoed. */
export function withoutControls(text: string): string {
  return text.replace(CONTROL_OR_FORMAT, (char) => `\\u{${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`)
}

/** What the caller sent, in double quotes for a failure message, controls escaped and cut short. */
export function quoted(value: string): string {
  const chars = [...value]
  const shown = chars.length > QUOTED_MAX_CHARACTERS ? `${chars.slice(0, QUOTED_MAX_CHARACTERS).join('')}…` : value
  return `"${withoutControls(shown.replace(/["\\]/g, '\\$&'))}"`
}

/** A report's sources, one "[n] title — url" line each, so text-only clients can resolve [n]. */
export function sourcesText(sources: Array<{ n: number; title: string; url: string }>): string {
  if (sources.length === 0) return 'Sources: none cited.'
  const lines = sources.map((source) => {
    const title = sanitizeMarkdown(source.title.replace(/\s+/g, ' ').trim())
    return `[${source.n}] ${title ? `${title} — ` : ''}${source.url}`
  })
  return `Sources:\n${lines.join('\n')}`
}
