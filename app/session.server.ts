// Cookie sessions for pages. getAccount returns undefined; requireAccount redirects to /login.
import { type RouterContextProvider, redirect } from 'react-router'
import { requestInfoContext, servicesContext } from '#app/context.ts'
import {
  type Account,
  clearedSessionCookie,
  readCookie,
  SESSION_COOKIE,
  sessionCookie,
} from '#server/accounts/contract.ts'

type Args = { request: Request; context: Readonly<RouterContextProvider> }

export function getAccount({ request, context }: Args): Promise<Account | undefined> {
  // The root loader (for the header) and the page's loader both ask, in the same request.
  const info = context.get(requestInfoContext)
  info.account ??= lookUpAccount(request, context)
  return info.account
}

async function lookUpAccount(request: Request, context: Args['context']): Promise<Account | undefined> {
  const token = readCookie(request.headers.get('cookie'), SESSION_COOKIE)
  if (!token) return undefined
  return context.get(servicesContext).accounts.sessions.account(token)
}

export async function requireAccount(args: Args): Promise<Account> {
  const account = await getAccount(args)
  if (account) return account
  const url = new URL(args.request.url)
  const back = url.pathname + url.search
  // A target longer than any page of ours would only make a Location header clients refuse to read.
  if (back.length > MAX_REDIRECT_TARGET) throw redirect('/login')
  throw redirect(`/login?${new URLSearchParams({ redirectTo: back })}`)
}

const MAX_REDIRECT_TARGET = 2048

/**
 * Where to go after logging in: only a path of this site. The target is parsed as a browser would
 * (tabs and newlines dropped, backslashes read as slashes), so "/\t/evil.test" is seen for the
 * other host it is; the answer is the parsed, percent-encoded path, always a valid Location.
 */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback = '/dashboard'): string {
  if (typeof target !== 'string' || !target.startsWith('/')) return fallback
  const ours = 'http://sextant.invalid'
  const url = URL.parse(target, ours)
  if (!url || url.origin !== ours) return fallback
  return `${url.pathname}${url.search}${url.hash}`
}

function isSecure(request: Request, context: Args['context']): boolean {
  const url = new URL(request.url)
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]'
  return url.protocol === 'https:' || (context.get(servicesContext).config.NODE_ENV === 'production' && !local)
}

/** Starts a session and redirects with its cookie, and any other cookie `also` makes. */
export async function signIn(
  args: Args,
  accountId: string,
  redirectTo: string,
  also?: (secure: boolean) => string,
): Promise<Response> {
  const session = await args.context.get(servicesContext).accounts.sessions.create(accountId)
  const secure = isSecure(args.request, args.context)
  const headers = new Headers()
  headers.append('Set-Cookie', sessionCookie(session.token, { expiresAt: session.expiresAt, secure }))
  if (also) headers.append('Set-Cookie', also(secure))
  return redirect(redirectTo, { headers })
}

export async function signOut({ request, context }: Args): Promise<Response> {
  const token = readCookie(request.headers.get('cookie'), SESSION_COOKIE)
  if (token) await context.get(servicesContext).accounts.sessions.delete(token)
  return redirect('/', { headers: { 'Set-Cookie': clearedSessionCookie() } })
}
