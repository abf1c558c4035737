// Sending one email over SMTP_URL with nodemailer. A refusal the server says is final (a 5xx reply:
// no such mailbox, policy) is told apart from one worth retrying (a 4xx, a connection that failed or
// timed out), which is what the deliver job needs to know.
import nodemailer from 'nodemailer'
import { DeliveryError } from '#server/notify/delivery-error.ts'

export type Email = {
  to: string
  subject: string
  text: string
  html: string
  headers?: Record<string, string>
}

export type Mailer = { send: (email: Email) => Promise<void>; close: () => void }

export function createMailer(options: { url: string; from: string; timeoutMs: number }): Mailer {
  const transport = nodemailer.createTransport({
    url: options.url,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
  })
  return {
    async send(email) {
      try {
        await transport.sendMail({ ...email, from: options.from })
      } catch (error) {
        throw deliveryError(error)
      }
    },
    close: () => transport.close(),
  }
}

function deliveryError(error: unknown): DeliveryError {
  const { message, responseCode } = error as { message?: string; responseCode?: number }
  const reason = `the mail server ${responseCode ? `refused it (${responseCode})` : 'did not take it'}: ${message ?? String(error)}`
  return new DeliveryError(reason, responseCode !== undefined && responseCode >= 500 ? 'never' : 'later')
}
