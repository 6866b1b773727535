import { checkFile } from '../documents/card';

/** Organisation page rules (spec §5): logo jpeg/jpg/png/gif under 5 MB, description ≤ 500, domains comma-separated. */
export const MAX_LOGO_BYTES = 5 * 1024 * 1024;
export const MAX_DESCRIPTION = 500;
const LOGO_EXT = ['jpeg', 'jpg', 'png', 'gif'];

export function checkLogo(file: { name: string; size: number }): 'organization.invalid_logo_type' | 'organization.invalid_logo_size' | undefined {
  const problem = checkFile(file, LOGO_EXT, MAX_LOGO_BYTES);
  return problem && `organization.invalid_logo_${problem}`;
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** Splits "a.org, b.com" into domains; returns the first entry that is not a bare domain, if any. */
export function parseDomains(value: string): { domains: string[]; invalid?: string } {
  const domains = value
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
  return { domains, invalid: domains.find((d) => !DOMAIN.test(d)) };
}

export const TIMEZONES = [
  'America/Argentina/Buenos_Aires',
  'America/Sao_Paulo',
  'America/Manaus',
  'America/Santiago',
  'America/Bogota',
  'America/Mexico_City',
  'America/Tijuana',
  'America/Cancun',
  'America/Lima',
  'America/Montevideo',
];
