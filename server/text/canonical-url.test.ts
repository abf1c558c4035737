import { expect, test } from 'vitest'
import { canonicalUrl } from '#server/text/canonical-url.ts'

test('spellings of one page give one URL', () => {
  const canonical = 'https://example.com/a'
  expect(canonicalUrl('https://Example.com/a/')).toBe(canonical)
  expect(canonicalUrl('https://example.com/a')).toBe(canonical)
  expect(canonicalUrl('https://example.com/a#x')).toBe(canonical)
  expect(canonicalUrl('https://example.com/a?utm_source=x')).toBe(canonical)
  expect(canonicalUrl('  HTTPS://EXAMPLE.COM:443/a/#top  ')).toBe(canonical)
})

test('the root path stays a single slash', () => {
  expect(canonicalUrl('https://example.com')).toBe('https://example.com/')
  expect(canonicalUrl('https://example.com/')).toBe('https://example.com/')
  expect(canonicalUrl('https://example.com//')).toBe('https://example.com/')
  expect(canonicalUrl('https://example.com?b=1')).toBe('https://example.com/?b=1')
})

test('scheme and host are lower-cased but the path keeps its case', () => {
  expect(canonicalUrl('HTTP://WWW.Example.COM/Docs/README')).toBe('http://www.example.com/Docs/README')
  expect(canonicalUrl('https://example.com/Docs')).not.toBe(canonicalUrl('https://example.com/docs'))
})

test('international host names become punycode', () => {
  expect(canonicalUrl('https://Bücher.example/katalog')).toBe('https://xn--bcher-kva.example/katalog')
  expect(canonicalUrl('https://例え.jp/')).toBe('https://xn--r8jz45g.jp/')
})

test('default ports are dropped and other ports kept', () => {
  expect(canonicalUrl('http://example.com:80/a')).toBe('http://example.com/a')
  expect(canonicalUrl('https://example.com:443/a')).toBe('https://example.com/a')
  expect(canonicalUrl('https://example.com:8443/a')).toBe('https://example.com:8443/a')
  expect(canonicalUrl('http://example.com:443/a')).toBe('http://example.com:443/a')
})

test('http and https stay different URLs', () => {
  expect(canonicalUrl('http://example.com/a')).not.toBe(canonicalUrl('https://example.com/a'))
})

test('every listed tracking parameter is removed and real parameters are kept', () => {
  const tracking = [
    'utm_source=a',
    'UTM_Medium=b',
    'utm_campaign=c',
    'utm_whatever=d',
    'gclid=1',
    'fbclid=2',
    'msclkid=3',
    'mc_cid=4',
    'mc_eid=5',
    'igshid=6',
    'ref_src=7',
    '_hsenc=8',
    '_hsmi=9',
    'yclid=10',
    'dclid=11',
    'twclid=12',
  ]
  expect(canonicalUrl(`https://example.com/p?id=42&${tracking.join('&')}`)).toBe('https://example.com/p?id=42')
  expect(canonicalUrl(`https://example.com/p?${tracking.join('&')}`)).toBe('https://example.com/p')
  expect(canonicalUrl('https://example.com/p?ref=home&utmost=1')).toBe('https://example.com/p?ref=home&utmost=1')
})

test('remaining parameters are sorted by name, keeping the order of repeated ones', () => {
  expect(canonicalUrl('https://example.com/s?q=x&b=2&a=1')).toBe('https://example.com/s?a=1&b=2&q=x')
  expect(canonicalUrl('https://example.com/s?tag=z&a=1&tag=y')).toBe('https://example.com/s?a=1&tag=z&tag=y')
})

test('parameter values keep their encoding, and a bare flag stays bare', () => {
  expect(canonicalUrl('https://example.com/s?q=a%20b&flag')).toBe('https://example.com/s?flag&q=a%20b')
  expect(canonicalUrl('https://example.com/s?q=a+b')).toBe('https://example.com/s?q=a+b')
  expect(canonicalUrl('https://example.com/s?q=%ZZ&&')).toBe('https://example.com/s?q=%ZZ')
})

test('a trailing slash is removed before the query', () => {
  expect(canonicalUrl('https://example.com/a/?b=1#frag')).toBe('https://example.com/a?b=1')
})

test('credentials are dropped', () => {
  expect(canonicalUrl('https://user:secret@example.com/a')).toBe('https://example.com/a')
})

test('anything that is not an absolute http(s) URL gives undefined', () => {
  for (const raw of [
    '',
    '   ',
    'javascript:alert(1)',
    'ftp://example.com/file',
    'mailto:someone@example.com',
    'data:text/plain,hi',
    'file:///etc/passwd',
    '/relative/path',
    'relative/path',
    '//example.com/a',
    'example.com',
    'https://',
    'not a url',
  ]) {
    expect(canonicalUrl(raw), raw).toBeUndefined()
  }
})

test('canonicalizing a canonical URL changes nothing', () => {
  for (const raw of [
    'https://Bücher.example/a/?z=1&utm_source=x&a=%20#f',
    'http://example.com',
    'https://e.com/s?q=a+b&f',
  ]) {
    const once = canonicalUrl(raw)
    expect(once).toBeDefined()
    expect(canonicalUrl(once ?? '')).toBe(once)
  }
})
