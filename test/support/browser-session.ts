// Drives the pages the way a browser does: same-origin form posts, the session cookie kept.
export async function postForm(baseUrl: string, path: string, fields: Record<string, string>, cookie?: string) {
  return fetch(new URL(path, baseUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: new URL(baseUrl).origin,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(fields),
  })
}

/** The name=value part of the session cookie a response sets. */
export function sessionCookieFrom(response: Response): string | undefined {
  const setCookie = response.headers.get('set-cookie') ?? ''
  return /(sx_session=[^;]*)/.exec(setCookie)?.[1]
}

export async function logIn(baseUrl: string, email: string, password: string): Promise<string> {
  const response = await postForm(baseUrl, '/login', { email, password, redirectTo: '/dashboard' })
  const cookie = sessionCookieFrom(response)
  if (response.status !== 302 || !cookie) throw new Error(`login failed: ${response.status} ${await response.text()}`)
  return cookie
}
