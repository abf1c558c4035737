// A real SMTP server in the test process (smtp-server), each message parsed with mailparser: what a
// mail client would see of Sextant's emails. No TLS (STARTTLS is not offered), no authentication.
import type { AddressInfo } from 'node:net'
import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export type ReceivedMail = {
  to: string[]
  subject: string
  text: string
  html: string
  headers: ParsedMail['headers']
  /** The header lines as sent, unfolded. */
  rawHeaders: string
}

export type StubSmtp = {
  url: string
  messages: ReceivedMail[]
  /** The messages to `address` once there are `count` of them (a bounded wait). */
  waitFor: (address: string, count?: number, timeoutMs?: number) => Promise<ReceivedMail[]>
  to: (address: string) => ReceivedMail[]
  close: () => Promise<void>
}

export async function startStubSmtp(): Promise<StubSmtp> {
  const messages: ReceivedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push({
            to: session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase()),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
            headers: mail.headers,
            rawHeaders: mail.headerLines.map((header) => header.line.replace(/\r?\n(?=[ \t])/g, '')).join('\n'),
          })
          callback()
        })
        .catch(callback)
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  const to = (address: string) => messages.filter((message) => message.to.includes(address.toLowerCase()))
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to,
    async waitFor(address, count = 1, timeoutMs = 30_000) {
      const deadline = performance.now() + timeoutMs
      while (to(address).length < count) {
        if (performance.now() > deadline)
          throw new Error(`${address} has ${to(address).length} messages, wanted ${count}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      return to(address)
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
