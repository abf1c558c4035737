// Bytes to text: the charset a byte-order mark, the Content-Type header or (for HTML) a <meta> in
// the first kilobytes names, else UTF-8. Then text Postgres can store (no NUL, no lone surrogate).

export function decodeBody(body: Buffer, mediaType: string, headerCharset: string | undefined): string {
  const label = bomCharset(body) ?? headerCharset ?? (mediaType === 'text/plain' ? undefined : metaCharset(body))
  let decoder: TextDecoder
  try {
    decoder = new TextDecoder(label ?? 'utf-8')
  } catch {
    decoder = new TextDecoder('utf-8') // a label no decoder knows: UTF-8 is the web's usual answer
  }
  return storable(decoder.decode(body))
}

/** Without NUL characters and unpaired surrogates, which a jsonb write refuses (server/vocabulary/storable-text.ts). */
export function storable(text: string): string {
  return text.replaceAll('\u0000', '').toWellFormed()
}

/** Plain text as paragraphs: line ends made \n, runs of blank lines one blank line. */
export function plainParagraphs(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      .split(/\n[ \t]*\n+/)
      // Line by line: an anchored regex over the whole text backtracks quadratically on long blank runs.
      .map((paragraph) =>
        paragraph
          .split('\n')
          .map((line) => line.trimEnd())
          .join('\n')
          .trim(),
      )
      .filter((paragraph) => paragraph !== '')
      .join('\n\n')
  )
}

function bomCharset(body: Buffer): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8'
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be'
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le'
  return undefined
}

function metaCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, 4096).toString('latin1')
  // Both <meta charset="x"> and <meta http-equiv="Content-Type" content="text/html; charset=x">.
  return head.match(/<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i)?.[1]
}
