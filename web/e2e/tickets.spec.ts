import { expect, test, type Page } from '@playwright/test';
import { ensureEnabledOrg, pageApi, screenshotAll, shardValue, signIn, viewports } from './campaign-helpers';

test.describe.configure({ mode: 'serial' });

test.beforeAll(() => ensureEnabledOrg());

/** Opens the public form and fills it for one ticket, paid once with an approving (APRO) card. */
async function fillTicketForm(page: Page, slug: string, ticket: string, firstName: string, email: string) {
  await page.goto(`/d/${slug}`);
  await page.getByLabel('Entrada', { exact: true }).selectOption(ticket);
  await page.getByRole('radio', { name: 'Por única vez' }).check({ force: true });
  await page.getByLabel('Nombre', { exact: true }).fill(firstName);
  await page.getByLabel('Apellido').fill('Gómez');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Número de documento', { exact: true }).fill('30123456');
  await page.getByLabel('Número de tarjeta').pressSequentially('4509953566233704', { delay: 10 });
  await expect(page.locator('[data-brand="visa"]')).toBeVisible();
  await page.getByLabel('Vencimiento').pressSequentially('1130');
  await page.getByLabel('Código de seguridad').fill('123');
  await page.getByLabel(/Nombre del titular/).fill('APRO');
}

/** A moment `days` from now as a Spanish speaker types it: dd/mm/yyyy hh:mm, local time. */
function inDays(days: number) {
  const d = new Date(Date.now() + days * 86_400_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getDate())}/${two(d.getMonth() + 1)}/${d.getFullYear()} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** Types a day and time into a date field and closes its calendar. */
async function typeDate(page: Page, field: ReturnType<Page['getByLabel']>, value: string) {
  await field.fill(value);
  await page.keyboard.press('Escape');
  await expect(field).toHaveValue(value);
}

test('a tickets campaign with event extras sells a ticket and shows the event thank-you page', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(viewports.desktop);
  await signIn(page);

  // The editor: details, a ticket price, the event extras and two ticket options (one limited).
  await page.goto('/manage/campaigns/choose_type');
  await page.locator('[data-type="tickets"]').click();
  await expect(page).toHaveURL(/\/manage\/campaigns\/[0-9a-f-]{36}$/);
  const uuid = page.url().split('/').pop()!;
  const title = `Peña solidaria ${Date.now().toString(36)}`;
  await page.getByLabel('Título').first().fill(title);
  await page.getByLabel('Descripción').fill('Una noche de folklore para juntar fondos para la biblioteca popular del barrio.');
  await page.getByRole('button', { name: 'Agregar monto' }).click();
  await page.getByLabel('Monto 1', { exact: true }).fill('2500');
  await page.getByLabel('Etiqueta del monto 1').fill('Entrada general');

  const event = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Evento', exact: true }) });
  await event.getByLabel('Categoría').fill('Música');
  await event.getByRole('combobox', { name: 'Formato' }).click();
  await page.getByRole('option', { name: 'Presencial' }).click();
  await typeDate(page, event.getByLabel('Comienza'), inDays(30));
  await typeDate(page, event.getByLabel('Termina'), inDays(30.2));
  await typeDate(page, event.getByLabel('Fin de la venta de entradas'), inDays(29));
  await event.getByRole('button', { name: 'Agregar entrada' }).click();
  await event.getByLabel('Nombre').nth(0).fill('Platea');
  await event.getByLabel('Ilimitadas').nth(0).uncheck();
  await event.getByLabel('Cantidad').nth(0).fill('1');
  await event.getByRole('button', { name: 'Agregar entrada' }).click();
  await event.getByLabel('Nombre').nth(1).fill('Campo');
  await expect(event.getByLabel('Ilimitadas').nth(1)).toBeChecked();
  await page.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.locator('[data-save-status="saved"]')).toBeVisible();
  await screenshotAll(page, 'tickets-editor');
  await page.getByRole('button', { name: 'Publicar' }).click();
  await expect(page.getByText('Publicada').first()).toBeVisible();

  const saved = await pageApi<{ slug: string; event: { category: string; format: string; tickets: { name: string; quantity: number | null }[] } }>(
    page, 'GET', `/manage/api/campaigns/${uuid}`);
  expect(saved.body.event).toMatchObject({ category: 'Música', format: 'physical', tickets: [{ name: 'Platea', quantity: 1 }, { name: 'Campo', quantity: null }] });
  const slug = saved.body.slug;

  // The public form: choose the limited ticket and buy it.
  await page.setViewportSize(viewports.phone);
  const email = `ana.tickets.${Date.now().toString(36)}@example.org`;
  await fillTicketForm(page, slug, 'Platea', 'Ana', email);
  await screenshotAll(page, 'tickets-form');
  await page.getByRole('button', { name: 'Donar $ 2.500,00' }).click();

  // The event thank-you page, also after a reload.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('¡Tu entrada está confirmada!', { timeout: 20_000 });
  for (const pass of [1, 2]) {
    const summary = page.getByTestId('thanks-summary');
    await expect(summary).toContainText('Música');
    await expect(summary).toContainText('Presencial');
    await expect(summary).toContainText('1 × Platea');
    await expect(summary).toContainText('$ 2.500,00');
    if (pass === 1) {
      await screenshotAll(page, 'tickets-thanks');
      await page.reload();
    }
  }

  // The row in the shard: one ticket of Platea, charged.
  const row = shardValue(`SELECT d.status || '|' || (d.items->0->>'item_name') || '|' || (d.items->0->>'quantity') || '|' || t.status
    FROM donations d JOIN donors dn ON dn.organization_id = d.organization_id AND dn.id = d.donor_id
    JOIN transactions t ON t.organization_id = d.organization_id AND t.donation_id = d.id
    WHERE dn.email = '${email}'`);
  expect(row).toBe('active|Platea|1|approved');

  // Platea is sold out now: the server refuses the next buyer with its message.
  await fillTicketForm(page, slug, 'Platea', 'Luis', `luis.${email}`);
  await page.getByRole('button', { name: /^Donar/ }).click();
  await expect(page.getByTestId('form-error')).toHaveText('No quedan suficientes entradas «Platea»: quedan 0', { timeout: 20_000 });
  await expect(page.locator('#f-amount-error')).toHaveText('No quedan suficientes entradas');
});
