// The caller and its API keys, as the API shows them: dates as ISO strings, never a secret but once.
import { z } from 'zod'

const timestamp = () => z.iso.datetime()

export const ApiKeySchema = z.object({
  id: z.uuid(),
  prefix: z.string().describe('The 8 characters after `sx_`: how a key is named in lists and URLs.'),
  name: z.string(),
  kind: z.enum(['standard', 'demo']),
  createdAt: timestamp(),
  lastUsedAt: timestamp().nullable(),
  revokedAt: timestamp().nullable(),
})

export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().describe('The full key, `sx_<prefix>_<secret>`: shown in this response only.'),
})

export const MeSchema = z.object({
  account: z.object({ id: z.uuid(), email: z.string(), kind: z.enum(['standard', 'local', 'demo', 'trial']) }),
  auth: z.object({
    via: z.enum(['api_key', 'local_dev']),
    keyPrefix: z.string().nullable(),
    demo: z.boolean().describe('Called with the public demo key: runs count against its daily limit.'),
  }),
})

export type ApiKeyView = z.infer<typeof ApiKeySchema>
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>
export type Me = z.infer<typeof MeSchema>
