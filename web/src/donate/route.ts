/** What the pathname asks for: /d/{slug}, /d/{slug}/thanks or /d/{slug}/convert/{uuid}. */
export type DonateRoute =
  | { page: 'form'; slug: string }
  | { page: 'thanks'; slug: string }
  | { page: 'convert'; slug: string; donation: string }
  | { page: 'none' };

export function parseRoute(pathname: string): DonateRoute {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] !== 'd' || !parts[1]) return { page: 'none' };
  const slug = parts[1];
  if (parts[2] === 'thanks') return { page: 'thanks', slug };
  if (parts[2] === 'convert' && parts[3]) return { page: 'convert', slug, donation: parts[3] };
  return { page: 'form', slug };
}
