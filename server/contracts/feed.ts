// A private Atom feed as the API shows it: what it follows, never its token but once (at creation).
import { z } from 'zod'

export const FeedViewSchema = z.object({
  id: z.uuid(),
  topic: z.string().describe('The topic the feed follows, as it was named when the feed was made.'),
  topicId: z.uuid().nullable().describe('Set when the feed follows a topic.'),
  seriesId: z.uuid().nullable().describe('Set when the feed follows a recurring brief.'),
  createdAt: z.iso.datetime(),
})

export const CreatedFeedSchema = FeedViewSchema.extend({
  url: z
    .string()
    .describe(
      'The feed, `{PUBLIC_URL}/feeds/{token}.atom`: readable without a login by whoever has it, so shown in this response only. Revoke it to stop it.',
    ),
})

export type FeedView = z.infer<typeof FeedViewSchema>
export type CreatedFeedView = z.infer<typeof CreatedFeedSchema>
