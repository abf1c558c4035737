// An account's email addresses as the API shows them.
import { z } from 'zod'

export const EmailAddressSchema = z.object({
  addressId: z.uuid(),
  address: z.string(),
  verified: z
    .boolean()
    .describe('Only verified addresses get digests: the link mailed to the address verifies it (within 24 hours).'),
  createdAt: z.iso.datetime(),
})

export const EmailAddressListSchema = z.object({
  enabled: z.boolean().describe('False when the server has no SMTP_URL: no email is sent at all.'),
  addresses: z.array(EmailAddressSchema),
})

export type EmailAddressView = z.infer<typeof EmailAddressSchema>
