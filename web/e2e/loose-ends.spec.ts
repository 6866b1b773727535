import { expect, test, type Page } from '@playwright/test';
import { createPublishedCampaign, DEMO_ORG, ensureEnabledOrg, pageApi, screenshotAll, shardValue, signIn, viewports } from './campaign-helpers';

// Issue #18's loose ends, as an administrator and a donor meet them: the campaign's channel and QR in
// the editor, the organisation's legal name, categories and pictures, and the analytics consent of
// the public form.

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(() => ensureEnabledOrg());

// A 1×1 PNG: the server checks an image's content, not only its name.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

test('the campaign editor sets the channel and downloads the QR', async ({ page }) => {
  await page.setViewportSize(viewports.desktop);
  await signIn(page);
  const campaign = await createPublishedCampaign(page, `Socios en la calle ${Date.now().toString(36)}`);
  await page.goto(`/manage/campaigns/${campaign.uuid}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(campaign.title);

  await page.getByRole('combobox', { name: 'Canal' }).click();
  await page.getByRole('option', { name: 'Cara a cara (promotores en la calle)' }).click();
  await page.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.locator('[data-save-status="saved"]')).toBeVisible();
  const saved = await pageApi<{ channel: string }>(page, 'GET', `/manage/api/campaigns/${campaign.uuid}`);
  expect(saved.body.channel).toBe('f2f');
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Canal' })).toHaveValue('Cara a cara (promotores en la calle)');

  await page.getByTestId('editor-qr').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('img', { name: 'Vista previa del código QR' })).toBeVisible();
  await screenshotAll(page, 'loose-ends-editor-qr', false);
  await dialog.getByRole('button', { name: 'Descargar' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: '.svg' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.svg$/);
  await expect(dialog).toHaveCount(0);
});

test('the organisation page keeps the legal name, categories and pictures', async ({ page }) => {
  // Picking a category toggles it: this run starts from none.
  shardValue(`UPDATE organization_profiles SET categories = '{}' WHERE organization_id = '${DEMO_ORG}'`);
  await page.setViewportSize(viewports.desktop);
  await signIn(page);
  await page.goto('/manage/settings/organization');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Organización');

  const legal = `Fundación Demo Asociación Civil ${Date.now().toString(36)}`;
  await page.getByLabel('Razón social').fill(legal);
  const categories = page.getByRole('combobox', { name: 'Temas y categorías' });
  await categories.click();
  await page.getByRole('option', { name: 'Educación' }).click();
  await page.getByRole('option', { name: 'Niñez' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Guardar', exact: true }).click();
  await expect(page.locator('[data-save-status="saved"]')).toBeVisible();

  const pictures = page.getByRole('region', { name: 'Imágenes' });
  await pictures.locator('input[type=file]').first().setInputFiles({ name: 'portada.png', mimeType: 'image/png', buffer: PNG });
  await expect(pictures.getByRole('img', { name: /^Portada de/ })).toBeVisible();
  await pictures.locator('input[type=file]').last().setInputFiles({ name: 'taller.png', mimeType: 'image/png', buffer: PNG });
  await expect(pictures.getByRole('img', { name: 'Foto 1 de la galería' })).toBeVisible();
  await screenshotAll(page, 'loose-ends-organization');

  const org = await pageApi<{ legal_name: string; categories: string[]; pictures: { image_for: string }[] }>(page, 'GET', '/manage/api/organization');
  expect(org.body.legal_name).toBe(legal);
  expect([...org.body.categories].sort()).toEqual(['children', 'education']);
  expect(org.body.pictures.map((p) => p.image_for)).toContain('gallery');

  // A text file named .png is refused with a message, and nothing is added.
  await pictures.locator('input[type=file]').last().setInputFiles({ name: 'nota.txt', mimeType: 'text/plain', buffer: Buffer.from('hola') });
  await expect(pictures.getByRole('alert')).toHaveText('La imagen debe ser JPG, PNG o GIF de menos de 5 MB.');

  await pictures.getByRole('button', { name: 'Eliminar la foto 1' }).click();
  await expect(pictures.getByRole('img', { name: 'Foto 1 de la galería' })).toHaveCount(0);
});

/** Requests to the analytics origins, answered here with an empty script so the test needs no internet. */
async function trackersOf(page: Page) {
  const seen: string[] = [];
  await page.route(/https:\/\/(www\.googletagmanager\.com|connect\.facebook\.net)\//, (route) => {
    seen.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'application/javascript', body: '' });
  });
  return seen;
}

test('the public form loads the campaign analytics only after the donor accepts', async ({ browser, page }) => {
  await signIn(page);
  const campaign = await createPublishedCampaign(page, `Medición ${Date.now().toString(36)}`, {
    analytics: { analytics_id: 'G-AP0RTA18', pixel_id: '1234567890', tag_manager_id: '' },
  });

  const donor = await browser.newPage();
  const seen = await trackersOf(donor);
  const res = await donor.goto(campaign.public_path);
  expect(res?.headers()['content-security-policy']).toContain('script-src \'self\' https://www.googletagmanager.com https://connect.facebook.net');
  const banner = donor.getByRole('region', { name: 'Tu privacidad' });
  await expect(banner).toContainText('Ley 25.326');
  await donor.waitForTimeout(500);
  expect(seen).toEqual([]);
  for (const [device, size] of Object.entries(viewports)) {
    await donor.setViewportSize(size);
    await donor.screenshot({ path: `test-results/screens/loose-ends-consent-${device}.png`, animations: 'disabled' });
  }
  await banner.getByRole('button', { name: 'Aceptar' }).click();
  await expect(banner).toHaveCount(0);
  await expect.poll(() => seen.length).toBe(2);
  expect(seen.some((u) => u.includes('gtag/js?id=G-AP0RTA18'))).toBe(true);
  expect(seen.some((u) => u.includes('fbevents.js'))).toBe(true);
  // The choice is remembered: no banner, the trackers load again.
  await donor.reload();
  await expect(donor.getByRole('heading', { level: 1 })).toHaveText(campaign.title);
  await expect(donor.getByRole('region', { name: 'Tu privacidad' })).toHaveCount(0);
  await expect.poll(() => seen.length).toBe(4);
  await donor.close();

  // Another donor refuses: nothing loads, now or after a reload.
  const other = await browser.newPage();
  const none = await trackersOf(other);
  await other.goto(campaign.public_path);
  await other.getByRole('region', { name: 'Tu privacidad' }).getByRole('button', { name: 'Rechazar' }).click();
  await other.reload();
  await expect(other.getByRole('heading', { level: 1 })).toHaveText(campaign.title);
  await other.waitForTimeout(500);
  expect(none).toEqual([]);
  await other.close();
});
