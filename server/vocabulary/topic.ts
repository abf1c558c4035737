import { z } from 'zod'
import { stripBidiControls } from '#server/text/bidi.ts'
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '#server/vocabulary/storable-text.ts'

export const TOPIC_MAX_CHARACTERS = 500

/**
 * A research topic as users send it: non-blank, at most 500 characters (code points, not UTF-16
 * units), without bidirectional controls (which would make it render reversed on every page).
 */
export const TopicSchema = z
  .string({ error: 'topic must be a string' })
  .overwrite(stripBidiControls)
  .trim()
  .min(1, 'topic is required')
  .refine(
    (topic) => [...topic].length <= TOPIC_MAX_CHARACTERS,
    `topic must be at most ${TOPIC_MAX_CHARACTERS} characters`,
  )
  .refine(isStorableText, `topic ${UNSTORABLE_TEXT_MESSAGE}`)
