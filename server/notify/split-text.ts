// Long reports become several chat messages: split between paragraphs where possible, then between
// lines, then between words, and never inside a Slack link (`<url|label>`) or a markdown link.
const WORD_OR_SPACE = /<[^<>\n]*>|\[[^\]\n]*\]\([^)\s]*\)|\S+|\s+/g

export function splitText(text: string, limit: number): string[] {
  const parts: string[] = []
  let current = ''
  const add = (piece: string, separator: string) => {
    if (!current) current = piece
    else if (current.length + separator.length + piece.length <= limit) current += separator + piece
    else {
      parts.push(current)
      current = piece
    }
  }
  for (const paragraph of text.trim().split(/\n{2,}/)) {
    if (paragraph.length <= limit) {
      add(paragraph, '\n\n')
      continue
    }
    // A paragraph too long for one message: its lines (and their words) follow on as they fit.
    let separator = '\n\n'
    for (const line of paragraph.split('\n')) {
      for (const piece of line.length <= limit ? [line] : splitLine(line, limit)) {
        add(piece, separator)
        separator = '\n'
      }
    }
  }
  if (current) parts.push(current)
  return parts
}

function splitLine(line: string, limit: number): string[] {
  const pieces: string[] = []
  let current = ''
  for (const token of line.match(WORD_OR_SPACE) ?? []) {
    if (current.length + token.length <= limit) {
      current += token
      continue
    }
    if (current.trim()) pieces.push(current.trimEnd())
    current = token.trim() ? token : ''
    // A single word longer than a message: cut it, there is nothing better to do.
    while (current.length > limit) {
      pieces.push(current.slice(0, limit))
      current = current.slice(limit)
    }
  }
  if (current.trim()) pieces.push(current.trimEnd())
  return pieces
}
