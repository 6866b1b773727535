// Card brand detection, lengths, Luhn and security-code rules of the donation form (§5). The campaign's
// gateway account states them (CardRule, the public read's payment_methods); the static table below,
// which mirrors internal/card/brand.go (keep both in step), applies only when it could not.

import type { PublicCardMethod } from '../../api/types.gen';

/** The brands of the static table. */
export type StaticBrand =
  | 'unknown' | 'visa' | 'mastercard' | 'amex' | 'diners' | 'maestro' | 'unionpay' | 'discover' | 'elo'
  | 'hipercard' | 'jcb' | 'naranja' | 'cabal' | 'oca' | 'mir' | 'hiper' | 'debvisa' | 'debmaster' | 'debelo';

/** A brand id: one of the static table's, or any the gateway names ('codensa', …). */
export type Brand = StaticBrand | (string & {});

/**
 * A card brand as the campaign's gateway account states it (internal/gateway CardMethod; campaign.PublicCardMethod):
 * bin_pattern and exclusion_pattern are regular expressions over the leading digits (the brand's when the first
 * matches and the second does not); luhn false: the issuer's numbers may fail the Luhn check.
 */
export type CardRule = PublicCardMethod;

interface BinRange { brand: StaticBrand; lo: string; hi: string }

const one = (brand: StaticBrand, ...prefixes: string[]): BinRange[] => prefixes.map((p) => ({ brand, lo: p, hi: p }));
const range = (brand: StaticBrand, lo: string, hi: string): BinRange => ({ brand, lo, hi });

// Local brands and debit ranges sit inside the big networks' ranges, so the longest matching prefix wins
// (prefixes of the same length never overlap).
const BINS: BinRange[] = [
  // The debit BINs and the Mastercard 5031 range of MercadoPago's published test cards, named as it names them.
  ...one('debmaster', '517878', '524101', '528733', '557905'),
  ...one('debvisa', '402365', '418914', '421301', '491511'),
  ...one('debelo', '506776'),
  range('mastercard', '503100', '503199'),
  ...one('visa', '4'),
  range('mastercard', '51', '55'), range('mastercard', '2221', '2720'),
  ...one('amex', '34', '37'),
  range('diners', '300', '305'), range('diners', '38', '39'),
  ...one('diners', '3095', '36'),
  range('jcb', '3528', '3589'), range('discover', '644', '649'),
  ...one('discover', '6011', '65'),
  ...one('unionpay', '62', '81'),
  range('maestro', '500000', '503099'), range('maestro', '503200', '504174'), range('maestro', '504176', '506698'), range('maestro', '506779', '508999'), range('maestro', '56', '59'),
  ...one('maestro', '493698', '63', '67', '6'),
  ...one('elo', '401178', '401179', '431274', '438935', '451416', '457393', '457631', '457632', '504175', '627780', '636297', '636368'),
  range('elo', '506699', '506775'), range('elo', '506777', '506778'), range('elo', '509000', '509999'), range('elo', '650031', '650033'), range('elo', '650035', '650051'),
  range('elo', '650405', '650439'), range('elo', '650485', '650538'), range('elo', '650541', '650598'), range('elo', '650700', '650718'),
  range('elo', '650720', '650727'), range('elo', '650901', '650978'), range('elo', '651652', '651679'), range('elo', '655000', '655019'),
  range('elo', '655021', '655058'),
  ...one('hipercard', '384100', '384140', '384160', '606282'),
  ...one('hiper', '637095', '63737423', '63743358', '637568', '637599', '637609', '637612'),
  ...one('naranja', '589562'),
  ...one('cabal', '589657', '603522', '627170'),
  range('cabal', '604201', '604400'),
  ...one('oca', '542991', '549530', '549564', '549571', '549576', '589892'),
  range('mir', '2200', '2204'),
  // Argentine Visa Débito BINs.
  ...one('debvisa',
    '400276', '400448', '400615', '400930', '402789', '402914', '404022', '404625', '405069', '405511',
    '405515', '405516', '405517', '405755', '405896', '405897', '406165', '406190', '406191', '406192',
    '406193', '406194', '406195', '406196', '406290', '406291', '406375', '406652', '406998', '406999',
    '408134', '408515', '410082', '410083', '410121', '410122', '410123', '410853', '411197', '411199',
    '411849', '412944', '413180', '416679', '416861', '417309', '417856', '417857', '421518', '421528',
    '421541', '421738', '423001', '423018', '423077', '423090', '423465', '423613', '423623', '424968',
    '424969', '426618', '427156', '427157', '428062', '428063', '428064', '429751', '429752', '431070',
    '431071', '434531', '434532', '434533', '434534', '434535', '434536', '434537', '434538', '434539',
    '434540', '434541', '434542', '434543', '434549', '434550', '434586', '434795', '437996', '437999',
    '438050', '438051', '438844', '439818', '441046', '442371', '442548', '443264', '444047', '444060',
    '444267', '444268', '444493', '446343', '446344', '446345', '446346', '446347', '448712', '450412',
    '450799', '450811', '451377', '451701', '451751', '451756', '451757', '451758', '451761', '451763',
    '451764', '451765', '451766', '451767', '451768', '451769', '451770', '451772', '451773', '452132',
    '452133', '453770', '455890', '457308', '457596', '457664', '457665', '459300', '462815', '463465',
    '464855', '468508', '469283', '469874', '472041', '472042', '473227', '473365', '473710', '473711',
    '473712', '473713', '473714', '473715', '473716', '473717', '473718', '473719', '473720', '473721',
    '473722', '473725', '474531', '476520', '477051', '477053', '477169', '478017', '478527', '478601',
    '480459', '480460', '480724', '480860', '481397', '481501', '481502', '481550', '483002', '483020',
    '483188', '485089', '485947', '486547', '486587', '486621', '486665', '487221', '488241', '489412',
    '489634', '492499', '492528', '492596', '492597', '492598', '499859'),
];

/** Strips what donors type between digits: whitespace, dots and dashes. */
export function cleanNumber(value: string): string {
  return value.replace(/[\s.\-]/g, '');
}

const compiled = new Map<string, RegExp | null>();

/** A gateway pattern as a RegExp, compiled once; null when it is empty or does not compile. */
function pattern(source: string): RegExp | null {
  if (!compiled.has(source)) {
    let re: RegExp | null = null;
    try {
      re = source === '' ? null : new RegExp(source);
    } catch {
      re = null;
    }
    compiled.set(source, re);
  }
  return compiled.get(source) ?? null;
}

/** Whether a rule can claim numbers: its pattern compiles, and so does its exclusion if it has one (a rule whose
 * exclusion does not compile is dropped rather than let it claim another brand's numbers). */
function live(r: CardRule): boolean {
  return pattern(r.bin_pattern) !== null && (r.exclusion_pattern === '' || pattern(r.exclusion_pattern) !== null);
}

/** Whether the gateway's rules can tell brands (some have a usable BIN pattern); otherwise the static table does. */
export function usable(rules?: CardRule[]): rules is CardRule[] {
  return !!rules && rules.some(live);
}

/** The gateway's rule for a number: the first whose pattern matches and whose exclusion does not. */
export function matchRule(number: string, rules: CardRule[]): CardRule | undefined {
  const digits = cleanNumber(number);
  if (!/^\d+$/.test(digits)) return undefined;
  return rules.find((r) => live(r) && pattern(r.bin_pattern)!.test(digits) && !pattern(r.exclusion_pattern)?.test(digits));
}

/** Detects the brand from the first 6–8 digits (spaces, dots and dashes ignored) by the gateway's rules when they
 * can tell, else by the static table; 'unknown' when none matches. */
export function detectBrand(number: string, rules?: CardRule[]): Brand {
  if (usable(rules)) return matchRule(number, rules)?.id ?? 'unknown';
  const digits = cleanNumber(number).slice(0, 8);
  if (!/^\d+$/.test(digits)) return 'unknown';
  let best: StaticBrand = 'unknown';
  let bestLen = 0;
  for (const r of BINS) {
    const n = r.lo.length;
    if (n > bestLen && digits.length >= n) {
      const head = digits.slice(0, n);
      if (head >= r.lo && head <= r.hi) {
        best = r.brand;
        bestLen = n;
      }
    }
  }
  return best;
}

export const BRAND_LENGTHS: Record<StaticBrand, number[]> = {
  unknown: [16],
  visa: [13, 16],
  mastercard: [16],
  amex: [15, 16],
  diners: [14],
  maestro: [12, 13, 14, 15, 16, 17, 18, 19],
  unionpay: [16, 17, 18, 19],
  discover: [16, 17, 18, 19],
  elo: [16],
  hipercard: [16],
  jcb: [16, 17, 18, 19],
  naranja: [16],
  cabal: [16],
  oca: [16],
  mir: [16, 17, 18, 19],
  hiper: [16],
  debvisa: [16],
  debmaster: [16],
  debelo: [16],
};

/** The static table's brands whose numbers are not Luhn-checked: their issuers have emitted numbers that fail it. */
const NO_LUHN: StaticBrand[] = ['naranja', 'debvisa', 'unionpay'];

export const BRAND_NAMES: Record<StaticBrand, string> = {
  unknown: '', visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', diners: 'Diners Club', maestro: 'Maestro',
  unionpay: 'UnionPay', discover: 'Discover', elo: 'Elo', hipercard: 'Hipercard', jcb: 'JCB', naranja: 'Naranja',
  cabal: 'Cabal', oca: 'OCA', mir: 'Mir', hiper: 'Hiper', debvisa: 'Visa Débito', debmaster: 'Mastercard Débito',
  debelo: 'Elo Débito',
};

const isStatic = (brand: Brand): brand is StaticBrand => Object.hasOwn(BRAND_NAMES, brand);

/** A brand's display name: the gateway's, else the static table's (the id for a brand neither knows). */
export function brandName(brand: Brand, rules?: CardRule[]): string {
  const rule = rules?.find((r) => r.id === brand);
  if (rule) return rule.name;
  return isStatic(brand) ? BRAND_NAMES[brand] : brand;
}

/** Digit-group sizes used to space the number as it is typed; unknown brands are not spaced. */
const GAPS: Partial<Record<Brand, number[]>> = { amex: [4, 6, 5], diners: [4, 6, 4] };

export interface CardLayout {
  brand: Brand;
  /** The longest valid length. */
  length: number;
  /** Group sizes, or [] for no spacing. */
  groups: number[];
  /** Input maxLength: digits plus the spaces between groups. */
  maxLength: number;
  cvvLength: number;
  cvvLengths: number[];
}

/** The valid lengths and security-code lengths of a brand: the gateway's rules for it, else the static table's
 * (amex 3 or 4 digits, others 3); null for a brand neither knows. */
function brandRules(brand: Brand, rules?: CardRule[]): { lengths: number[]; cvvLengths: number[]; luhn: boolean } | null {
  const own = usable(rules) ? rules.filter((r) => r.id === brand) : [];
  if (own.length > 0) {
    return {
      lengths: [...new Set(own.flatMap((r) => r.lengths))],
      cvvLengths: [...new Set(own.map((r) => r.security_code_length))],
      luhn: own.every((r) => r.luhn),
    };
  }
  if (brand === 'unknown' || !isStatic(brand)) return null;
  return { lengths: BRAND_LENGTHS[brand], cvvLengths: brand === 'amex' ? [3, 4] : [3], luhn: !NO_LUHN.includes(brand) };
}

/** The layout for a brand; unknown resets to length 16, no spacing and a 3- or 4-digit security code. */
export function cardLayout(brand: Brand, rules?: CardRule[]): CardLayout {
  const r = brandRules(brand, rules);
  if (!r) return { brand: 'unknown', length: 16, groups: [], maxLength: 19, cvvLength: 3, cvvLengths: [3, 4] };
  const length = Math.max(...r.lengths);
  const groups = GAPS[brand] ?? Array.from({ length: Math.ceil(length / 4) }, () => 4);
  return {
    brand,
    length,
    groups,
    maxLength: length + groups.length - 1,
    cvvLength: Math.max(...r.cvvLengths),
    cvvLengths: r.cvvLengths,
  };
}

/** Spaces the digits in the layout's groups ("4509 9535 6623 3704"). */
export function formatCardNumber(value: string, layout: CardLayout): string {
  const digits = cleanNumber(value).replace(/\D/g, '').slice(0, layout.brand === 'unknown' ? 19 : layout.length);
  if (layout.groups.length === 0) return digits;
  const parts: string[] = [];
  let i = 0;
  for (const size of layout.groups) {
    if (i >= digits.length) break;
    parts.push(digits.slice(i, i + size));
    i += size;
  }
  if (i < digits.length) parts.push(digits.slice(i));
  return parts.join(' ');
}

/** Luhn (mod 10) check on ASCII digits. */
export function luhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export type NumberError = 'required' | 'invalid' | 'type';

/** Checks a card number: digits only, a recognised brand, a length valid for it and Luhn unless exempt, by the
 * gateway's rules when they can tell, else by the static table. */
export function checkCardNumber(value: string, rules?: CardRule[]): NumberError | null {
  const digits = cleanNumber(value);
  if (digits === '') return 'required';
  if (!/^\d+$/.test(digits)) return 'invalid';
  const r = brandRules(detectBrand(digits, rules), rules);
  if (!r) return 'type';
  if (!r.lengths.includes(digits.length)) return 'invalid';
  if (r.luhn && !luhn(digits)) return 'invalid';
  return null;
}

/** Security code: digits only, of the brand's length (static table: 3, amex 3 or 4); unknown brand 3 or 4. */
export function validCvv(brand: Brand, cvv: string, rules?: CardRule[]): boolean {
  if (!/^\d+$/.test(cvv)) return false;
  return (brandRules(brand, rules)?.cvvLengths ?? [3, 4]).includes(cvv.length);
}
