import { describe, expect, it } from 'vitest';
import { checkCover, HEX_COLOR, shareUrl } from './api';

describe('campaign helpers', () => {
  it('builds share URLs and throws for other networks', () => {
    expect(shareUrl('facebook', 'https://x.test/d/a')).toContain('facebook.com/sharer');
    expect(shareUrl('twitter', 'https://x.test/d/a')).toContain('twitter.com/intent/tweet');
    expect(shareUrl('whatsapp', 'https://x.test/d/a')).toContain('whatsapp.com/send');
    expect(() => shareUrl('linkedin', 'https://x.test')).toThrow();
  });

  it('checks cover images and colours', () => {
    expect(checkCover(new File(['x'], 'a.png', { type: 'image/png' }))).toBeNull();
    expect(checkCover(new File(['x'], 'a.pdf', { type: 'application/pdf' }))).toBe('type');
    expect(HEX_COLOR.test('#0f766e')).toBe(true);
    expect(HEX_COLOR.test('#fff')).toBe(true);
    expect(HEX_COLOR.test('red')).toBe(false);
  });
});
