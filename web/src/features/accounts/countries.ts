/** uid masks per country (§5): code, so it stays here; the countries, their phone codes and uid options
 * are reference data the server answers (countriesQuery in ./api). */

/** Fills a '#' pattern with characters, stopping where the characters run out. */
function fill(pattern: string, chars: string): string {
  let out = '';
  let i = 0;
  for (const p of pattern) {
    if (i >= chars.length) break;
    if (p === '#') out += chars[i++];
    else out += p;
  }
  return out;
}

/** Applies the country's uid mask (§5) to what the person typed, keeping only the characters the mask accepts. */
export function maskUid(country: string, uidType: string, raw: string): string {
  const digits = raw.replace(/\D/g, '');
  switch (country) {
    case 'AR':
      return fill('##-########-#', digits.slice(0, 11));
    case 'BR':
      return uidType === 'CPF' ? fill('###.###.###-##', digits.slice(0, 11)) : fill('##.###.###/####-##', digits.slice(0, 14));
    case 'CL': {
      // #.###.###-X or ##.###.###-X: the check character is a digit or K.
      const chars = raw.toUpperCase().replace(/[^0-9K]/g, '').replace(/K(?=.)/g, '').slice(0, 9);
      if (chars.length < 2) return chars;
      const body = chars.slice(0, -1);
      const check = chars.slice(-1);
      return `${body.replace(/\B(?=(\d{3})+(?!\d))/g, '.')}-${check}`;
    }
    case 'CO': {
      // 9 to 12 digits plus a check digit.
      const d = digits.slice(0, 13);
      return d.length >= 10 ? `${d.slice(0, -1)}-${d.slice(-1)}` : d;
    }
    case 'MX': {
      // XXX-XXXXXX-XXX (companies, 12) or XXXX-XXXXXX-XXX (people, 13).
      const chars = raw.toUpperCase().replace(/[^A-Z0-9Ñ&]/g, '').slice(0, 13);
      const letters = /^[A-ZÑ&]{4}/.test(chars) ? 4 : 3;
      return fill(`${'#'.repeat(letters)}-######-###`, chars);
    }
    case 'PE':
      return digits.slice(0, 11);
    case 'UY':
      return fill('##-######-###-#', digits.slice(0, 12));
    default:
      return raw;
  }
}

/** True when the masked value has the length the country's mask asks for (the server then checks the digits). */
export function uidComplete(country: string, uidType: string, masked: string): boolean {
  const bare = masked.replace(/[^0-9A-ZÑ&K]/gi, '');
  switch (country) {
    case 'AR':
      return bare.length === 11;
    case 'BR':
      return bare.length === (uidType === 'CPF' ? 11 : 14);
    case 'CL':
      return bare.length >= 8 && bare.length <= 9;
    case 'CO':
      return bare.length >= 10 && bare.length <= 13;
    case 'MX':
      return bare.length === 12 || bare.length === 13;
    case 'PE':
      return bare.length === 11;
    case 'UY':
      return bare.length === 12;
    default:
      return bare.length > 0;
  }
}

export const COUNTRY_COOKIE = 'aporta_country';

/** The country chosen at signup, kept in a cookie so a reload (and the server) see it; the caller checks it is offered. */
export function readCountryCookie(doc: Document = document): string | undefined {
  const match = doc.cookie.split('; ').find((c) => c.startsWith(`${COUNTRY_COOKIE}=`));
  return match?.slice(COUNTRY_COOKIE.length + 1);
}

export function writeCountryCookie(country: string, doc: Document = document) {
  doc.cookie = `${COUNTRY_COOKIE}=${country}; path=/; max-age=${60 * 60 * 24 * 365}; samesite=lax`;
}
