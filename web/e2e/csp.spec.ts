import { expect, test, type Page } from '@playwright/test';
import { createPublishedCampaign, ensureEnabledOrg, signIn } from './campaign-helpers';

test.describe.configure({ mode: 'serial', timeout: 90_000 });

/** Chromium reports every resource the Content-Security-Policy blocks on the console. */
function cspViolations(page: Page) {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) seen.push(m.text());
  });
  return seen;
}

// The app and the donation page run whole under their policy: nothing they load is refused, and the
// donation page reaches the gateway's tokeniser (its amount limits load from there).
test('the app and the donation page work under the Content-Security-Policy', async ({ page }) => {
  ensureEnabledOrg();
  const violations = cspViolations(page);
  const landing = await page.goto('/');
  expect(landing?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  await signIn(page);
  await page.goto('/manage/campaigns');
  const campaign = await createPublishedCampaign(page, `Política ${Date.now().toString(36)}`);
  await page.goto('/manage/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  const gateway = page.waitForResponse((r) => r.url().includes('/v1/payment_methods'));
  const donate = await page.goto(`/d/${campaign.slug}`);
  expect(donate?.status()).toBe(200);
  expect(donate?.headers()['referrer-policy']).toBe('no-referrer');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(campaign.title);
  expect((await gateway).ok()).toBe(true);
  expect(violations).toEqual([]);
});
