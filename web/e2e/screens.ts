// Screenshots of every screen at desktop and phone width, for people to look at (test-results/screens).
import type { Page } from '@playwright/test';

export const SCREENS = 'test-results/screens';
export const viewports = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

/** One screenshot, animations finished first so it never catches a modal or banner mid-transition. */
export const shot = (page: Page, file: string, fullPage = false) =>
  page.screenshot({ path: `${SCREENS}/${file}.png`, fullPage, animations: 'disabled' });

/** The page at each viewport, then back to desktop. */
export async function screenshotAll(page: Page, name: string, fullPage = true) {
  for (const [device, size] of Object.entries(viewports)) {
    await page.setViewportSize(size);
    await page.waitForTimeout(150);
    await shot(page, `${name}-${device}`, fullPage);
  }
  await page.setViewportSize(viewports.desktop);
}
