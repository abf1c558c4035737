// Bidirectional control characters make text render in an order other than the one it was written
// in: a topic ending in U+202E shows reversed, and can make "txt.exe" look like "exe.txt". No brief
// needs them (right-to-left scripts render correctly without them), so they are removed from text
// people typed before it is stored, and again before stored text is shown.

/**
 * The embeddings and overrides (U+202A–U+202E), the isolates (U+2066–U+2069), the left-to-right
 * and right-to-left marks (U+200E, U+200F) and the Arabic letter mark (U+061C).
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g

export function stripBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '')
}
