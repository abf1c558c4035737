// Tests never reach the internet. Unless a test picks a search provider (or gives an Exa key, which
// picks Exa), the app it starts searches the local corpus, not the default: the open web sources.
// Unless a test names the hosts the page reader may fetch (its stub web), the app reads no pages:
// a stub search result's URL is a real site's.
export function offlineSearch(env: Record<string, string | undefined> = {}): Record<string, string> {
  return {
    ...(env.SEARCH_PROVIDER || env.EXA_API_KEY ? {} : { SEARCH_PROVIDER: 'corpus' }),
    ...(env.READ_PAGES || env.READER_ALLOW_HOSTS ? {} : { READ_PAGES: 'false' }),
  }
}
