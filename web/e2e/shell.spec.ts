import { expect, test } from '@playwright/test';
import { screenshotAll, shot, viewports } from './screens';

test('landing page speaks Spanish by default and English on ?locale=en', async ({ page }) => {
  await page.setViewportSize(viewports.desktop);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Donaciones mensuales que sostienen tu causa');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  // A public page: no internals (the service's dependencies stay behind /readyz) and no developer tools.
  await expect(page.getByRole('heading', { name: 'Equipos y agencias' })).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  await expect(page.getByText(/kit de interfaz|Dependencias|kratos|keto/i)).toHaveCount(0);
  await screenshotAll(page, 'landing-es');

  await page.goto('/?locale=en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Monthly donations that sustain your cause');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  // The switch keeps the choice in the URL, and links carry it along.
  await page.getByText('PT', { exact: true }).click();
  await expect(page).toHaveURL(/locale=pt/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Doações mensais que sustentam a sua causa');
  await screenshotAll(page, 'landing-pt');
  await page.getByRole('link', { name: 'Cadastrar minha organização' }).first().click();
  await expect(page).toHaveURL(/\/signup\?locale=pt/);
  await expect(page.getByRole('heading', { name: 'Cadastre sua organização' })).toBeVisible();
});

test('kit: save-status banner and copy-link button', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize(viewports.desktop);
  await page.goto('/dev/kit');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Kit de interfaz');
  await screenshotAll(page, 'kit-es');

  const banner = page.locator('[data-save-status]');
  await page.getByRole('button', { name: 'Guardar', exact: true }).click();
  await expect(banner).toHaveText('guardando...');
  await expect(banner).toHaveText('Guardado correctamente');
  await shot(page, 'kit-saved-desktop');
  await expect(banner).toBeHidden({ timeout: 8000 });

  await page.getByRole('button', { name: 'Guardar con error' }).click();
  await expect(banner).toHaveText('Error al guardar');

  const copy = page.getByRole('button', { name: 'Copiar enlace' });
  await copy.click();
  await expect(page.getByRole('button', { name: '¡Enlace copiado!' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('https://aporta.org/c/agua-para-todos');
  await expect(page.getByRole('button', { name: 'Copiar enlace' })).toBeVisible({ timeout: 5000 });

  await page.getByRole('button', { name: 'Siguiente' }).click();
  await expect(page.getByText('Mostrando 11–20 de 42')).toBeVisible();

  await page.getByRole('button', { name: 'Descargar por correo' }).click();
  await page.getByRole('button', { name: 'Enviar enlace' }).click();
  await expect(page.getByText('Te enviamos un enlace de descarga por correo electrónico.')).toBeVisible();
  await shot(page, 'kit-download-desktop');
  await page.getByRole('button', { name: 'Entendido' }).click();

  await page.setViewportSize(viewports.phone);
  await page.getByRole('button', { name: 'Descartar donación' }).click();
  await expect(page.getByRole('radio', { name: 'El donante pidió dejar de donar' })).toBeChecked();
  await shot(page, 'kit-discard-phone');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
});

test('unknown paths show the not-found page', async ({ page }) => {
  await page.goto('/no-existe');
  await expect(page.getByRole('heading', { name: 'No encontramos esta página' })).toBeVisible();
  await screenshotAll(page, 'not-found');

  // Inside the staff console: a 404, in the console's own frame, leading back to its start.
  const staff = await page.goto('/staff/nope');
  expect(staff?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'No encontramos esta página' })).toBeVisible();
  await expect(page.getByText('Consola', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Volver al inicio' })).toHaveAttribute('href', '/staff');

  // An unknown donation form is a dead link for crawlers and monitors too, and says so in the visitor's language.
  const form = await page.goto('/d/no-existe-esta-campana?locale=en');
  expect(form?.status()).toBe(404);
  await expect(page.getByRole('alert')).toHaveText('This campaign does not exist or no longer accepts donations.');
});
