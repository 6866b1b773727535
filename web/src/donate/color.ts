// The campaign colour, adjusted so white text on it (buttons, selected options) passes WCAG AA (4.5:1).

const DEFAULT = '#0f766e';

function parseHex(hex: string): [number, number, number] | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  let h = m[1]!;
  if (h.length === 3) h = h.split('').map((c) => c + c).join('');
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrast(a: string, b: string): number {
  const la = luminance(parseHex(a) ?? [0, 0, 0]);
  const lb = luminance(parseHex(b) ?? [0, 0, 0]);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

const toHex = (rgb: number[]) => '#' + rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('');

/** The campaign colour darkened just enough for 4.5:1 against white; the default teal when invalid. */
export function accessibleAccent(hex: string | undefined): string {
  const rgb = parseHex(hex ?? '') ?? parseHex(DEFAULT)!;
  let c: number[] = [...rgb];
  for (let i = 0; i < 40 && contrast(toHex(c), '#ffffff') < 4.5; i++) c = c.map((v) => v * 0.92);
  return toHex(c);
}

/** A light tint of the accent for selected backgrounds. */
export function tint(hex: string, amount = 0.9): string {
  const rgb = parseHex(hex) ?? [0, 0, 0];
  return toHex(rgb.map((v) => v + (255 - v) * amount));
}
