// A stand-in browser for the CLI test (BROWSER=this script): follows the authorization URL
// through the authorization server with a cookie jar, then loads the redirect (our loopback).
const [, , start] = process.argv;
const jar = new Map();
let url = new URL(start);
const origin = url.origin;
for (let hop = 0; hop < 20 && url.origin === origin; hop++) {
  const res = await fetch(url, {
    redirect: 'manual',
    headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
  });
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';');
    const i = pair.indexOf('=');
    jar.set(pair.slice(0, i), pair.slice(i + 1));
  }
  const location = res.headers.get('location');
  await res.body?.cancel();
  if (!location) process.exit(1);
  url = new URL(location, url);
}
const res = await fetch(url);
process.exit(res.ok ? 0 : 1);
