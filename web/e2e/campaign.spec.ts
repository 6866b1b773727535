import { expect, test } from '@playwright/test';
import { ensureEnabledOrg, pageApi, screenshotAll, signIn, viewports } from './campaign-helpers';

test.describe.configure({ mode: 'serial' });

test.beforeAll(() => ensureEnabledOrg());

test('create, edit and publish a campaign; list with QR dialog', async ({ page, context }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize(viewports.desktop);
  await signIn(page);

  // Choose the type: the five types with their descriptions.
  await page.goto('/manage/campaigns/choose_type');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('¿Qué tipo de campaña quieres crear?');
  for (const t of ['crowdfund', 'custom', 'fundraise', 'promoted', 'tickets']) await expect(page.locator(`[data-type="${t}"]`)).toBeVisible();
  await screenshotAll(page, 'campaign-choose-type');
  await page.locator('[data-type="fundraise"]').click();
  await expect(page).toHaveURL(/\/manage\/campaigns\/[0-9a-f-]{36}$/);
  const uuid = page.url().split('/').pop()!;

  // The editor: details, amounts with labels, colour, thank-you message with a short-code chip.
  const title = `Comedor Los Girasoles ${Date.now().toString(36)}`;
  await page.getByLabel('Título').first().fill(title);
  await page.getByLabel('Descripción').fill('Cada aporte sostiene el comedor comunitario del barrio: alimentos frescos y un lugar cálido para 120 chicos.');
  await page.getByLabel('Objetivo').fill('120 almuerzos diarios durante todo el año.');
  const amounts = [['1500', 'Una semana de almuerzos'], ['3000', 'Un mes de frutas y verduras'], ['6000', 'Un mes de almuerzos para un chico']];
  for (const [i, [amount, label]] of amounts.entries()) {
    await page.getByRole('button', { name: 'Agregar monto' }).click();
    await page.getByLabel(`Monto ${i + 1}`, { exact: true }).fill(amount!);
    await page.getByLabel(`Etiqueta del monto ${i + 1}`).fill(label!);
  }
  // Colour: hex only.
  const color = page.getByLabel('Color del formulario');
  await color.fill('violeta');
  await expect(page.getByText('Color hexadecimal invalido')).toBeVisible();
  await color.fill('#7c3aed');
  await expect(page.getByText('Color hexadecimal invalido')).toHaveCount(0);
  const instant = page.getByLabel('Mensaje inmediato (en pantalla)');
  await instant.fill('¡Gracias ');
  await page.getByRole('button', { name: 'Insertar {nombre}' }).first().click();
  await instant.press('End');
  await instant.pressSequentially('! Tu aporte de {monto} ya está en camino.');
  await expect(instant).toHaveValue('¡Gracias {nombre}! Tu aporte de {monto} ya está en camino.');

  // A form field from the toolbox, through its dialog.
  await page.locator('[data-field-type="cellphone"]').click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.getByRole('dialog').getByLabel('Requerido').check();
  await page.getByRole('button', { name: 'Guardar campo' }).click();
  await expect(page.locator('[data-save-status="saved"]')).toBeVisible();

  await page.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.locator('[data-save-status="saved"]')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await screenshotAll(page, 'campaign-editor');

  // Publish: the server decides; the badge follows.
  await page.getByRole('button', { name: 'Publicar' }).click();
  await expect(page.getByText('Publicada').first()).toBeVisible();
  const saved = await pageApi<{ published: boolean; amounts: { label: string }[]; form_fields: unknown[] }>(page, 'GET', `/manage/api/campaigns/${uuid}`);
  expect(saved.body.published).toBe(true);
  expect(saved.body.amounts.map((a) => a.label)).toEqual(amounts.map(([, l]) => l));
  expect(saved.body.form_fields).toHaveLength(1);

  // Share: copy link shows "copied".
  await page.getByRole('button', { name: 'Compartir' }).click();
  await page.getByRole('menuitem', { name: 'Copiar enlace' }).click();
  await expect(page.getByRole('menuitem', { name: '¡Enlace copiado!' })).toBeVisible();
  await page.keyboard.press('Escape');

  // The list: status badge, copy link and the QR dialog (loading → loaded), .svg/.png menu; a download closes it.
  await page.goto('/manage/campaigns');
  const row = page.getByRole('row').filter({ hasText: title });
  await expect(row.getByText('Publicada')).toBeVisible();
  await screenshotAll(page, 'campaign-list');
  await row.getByRole('button', { name: `Código QR de ${title}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('img', { name: 'Vista previa del código QR' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Descargar' }).click();
  await expect(page.getByRole('menuitem', { name: '.svg' })).toBeVisible();
  await screenshotAll(page, 'campaign-qr-dialog', false);
  // The menu closes 200 ms after the pointer leaves it (the screenshots' resizing makes it leave):
  // let it close, reopen it with the pointer on its button, and choose from the keyboard.
  const png = page.getByRole('menuitem', { name: '.png' });
  await page.mouse.move(0, 0);
  await expect(png).toBeHidden();
  await dialog.getByRole('button', { name: 'Descargar' }).click();
  await expect(png).toBeVisible();
  const download = page.waitForEvent('download');
  await png.press('Enter');
  expect((await download).suggestedFilename()).toMatch(/\.png$/);
  await expect(dialog).toHaveCount(0);
});
