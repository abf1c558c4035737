import { createContext, useContext } from 'react'

const NonceContext = createContext<string>('')

export const NonceProvider = NonceContext.Provider

/** The CSP nonce of this request, for <Scripts>, <ScrollRestoration> and friends. Empty in the browser. */
export function useNonce(): string {
  return useContext(NonceContext)
}
