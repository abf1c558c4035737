// Tests never reach the internet. Unless a test picks a search provider (or gives an Exa key, which
// picks Exa), the app it starts searches the local corpus, not the default: the open web sources.
export function offlineSearch(env: Record<string, string | undefined> = {}): Record<string, string> {
  return env.SEARCH_PROVIDER || env.EXA_API_KEY ? {} : { SEARCH_PROVIDER: 'corpus' }
}
