// Tests never reach the internet. Unless a test picks a search provider (or gives a key or URL that
// picks one: Exa, Tavily, Brave, SearXNG), the app it starts searches the local corpus, not the
// default: the open web sources. Unless a test names the hosts the page reader may fetch (its stub
// web), the app reads no pages: a stub search result's URL is a real site's.
export function offlineSearch(env: Record<string, string | undefined> = {}): Record<string, string> {
  const picked = env.SEARCH_PROVIDER || env.EXA_API_KEY || env.TAVILY_API_KEY || env.BRAVE_API_KEY || env.SEARXNG_URL
  return {
    ...(picked ? {} : { SEARCH_PROVIDER: 'corpus' }),
    ...(env.READ_PAGES || env.READER_ALLOW_HOSTS ? {} : { READ_PAGES: 'false' }),
  }
}
