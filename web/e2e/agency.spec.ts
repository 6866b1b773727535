// External teams (issue 15): the organisation creates a live agency with a delay, authorises a
// campaign and adds an operator; the operator, on a phone, signs a donor up in the agency's work
// area, where the sign-up waits its delay before it becomes the organisation's.
import { expect, test, type Page } from '@playwright/test';
import { createPublishedCampaign, ensureEnabledOrg, screenshotAll, signIn, viewports } from './campaign-helpers';

test.use({ actionTimeout: 15_000, trace: 'off' });

const AGENT_PASSWORD = 'Agente-Calle-2026';

/** Gives the new agent a password through Kratos's admin API, as choosing it by recovery code would. */
async function setPassword(email: string) {
  const admin = process.env.APORTA_KRATOS_ADMIN_URL;
  const found = (await (await fetch(`${admin}/admin/identities?credentials_identifier=${encodeURIComponent(email)}`)).json()) as { id: string; schema_id: string; traits: unknown }[];
  expect(found).toHaveLength(1);
  const { id, schema_id, traits } = found[0]!;
  const res = await fetch(`${admin}/admin/identities/${id}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ schema_id, traits, state: 'active', credentials: { password: { config: { password: AGENT_PASSWORD } } } }),
  });
  expect(res.status).toBe(200);
}

async function chooseOption(page: Page, label: RegExp | string, option: string) {
  await page.getByRole('dialog').getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('the organisation creates an agency and its operator signs a donor up on a phone', async ({ page, browser }) => {
  test.setTimeout(150_000);
  ensureEnabledOrg();
  await signIn(page);
  const campaign = await createPublishedCampaign(page, `Calle ${Date.now().toString(36)}`);

  await page.goto('/manage/settings/agencies');
  await expect(page.getByRole('heading', { name: 'Equipos externos' })).toBeVisible();
  await page.getByRole('button', { name: 'Nuevo equipo' }).click();
  const dialog = page.getByRole('dialog');
  const name = `Equipo Calle ${Date.now().toString(36)}`;
  await dialog.getByRole('textbox', { name: /Nombre del equipo/ }).fill(name);
  await dialog.getByText('Real', { exact: true }).click();
  await chooseOption(page, /Demora de sincronización/, '1 minuto');
  await dialog.getByRole('button', { name: 'Crear equipo' }).click();
  await expect(page.getByRole('heading', { name })).toBeVisible({ timeout: 20_000 });

  await page.getByRole('button', { name: 'Asociar campaña' }).click();
  await chooseOption(page, 'Campaña', campaign.title);
  const amounts = page.getByRole('dialog').getByRole('combobox', { name: 'Montos disponibles' });
  await amounts.fill('1500');
  await amounts.press('Enter');
  await amounts.fill('3000');
  await amounts.press('Enter');
  await page.getByRole('dialog').getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByRole('row').filter({ hasText: campaign.title })).toContainText('$ 3.000');

  const email = `agente.${Date.now().toString(36)}@example.org`;
  await page.getByRole('button', { name: 'Nueva persona' }).click();
  const person = page.getByRole('dialog');
  await person.getByRole('textbox', { name: /^Nombre/ }).fill('Olga');
  await person.getByLabel('Apellido').fill('Operadora');
  await person.getByLabel('E-mail').fill(email);
  await expect(person.getByLabel(/Captación/)).toBeChecked();
  await expect(person.getByLabel(/Gestión/)).not.toBeChecked();
  await person.getByRole('button', { name: 'Guardar' }).click();
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row.getByText('Activo')).toBeVisible();
  await expect(row.getByText('Captación')).toBeVisible();
  await screenshotAll(page, 'settings-agency');
  await page.goto('/manage/settings/agencies');
  await expect(page.getByRole('link', { name })).toBeVisible();
  await screenshotAll(page, 'settings-agencies');

  // The operator, on a phone.
  await setPassword(email);
  const phone = await browser.newContext({ viewport: viewports.phone });
  const agent = await phone.newPage();
  await agent.goto('/agency');
  await expect(agent).toHaveURL(/\/account\/login/, { timeout: 20_000 });
  await agent.locator('input[name="identifier"]').fill(email);
  await agent.locator('input[name="password"]').fill(AGENT_PASSWORD);
  await agent.locator('form button[type="submit"]').first().click();
  await expect(agent.getByRole('heading', { name })).toBeVisible({ timeout: 20_000 });
  await agent.getByText(/^\$\s3\.000(,00)?$/).click();
  await agent.getByRole('textbox', { name: /^Nombre\s*\*?$/ }).fill('Dora');
  await agent.getByLabel('Apellido').fill('Donante');
  await agent.getByLabel('E-mail').fill(`dora.${Date.now().toString(36)}@example.org`);
  await agent.getByLabel('Documento (DNI)').fill('30111222');
  await agent.getByLabel('Número de tarjeta').fill('4509953566233704');
  await agent.getByLabel('Vencimiento').pressSequentially('1130');
  await agent.getByLabel('Código de seguridad').fill('123');
  await agent.getByLabel('Nombre del titular').fill('APRO');
  await screenshotAll(agent, 'agency-signup', false);
  await agent.getByRole('button', { name: 'Registrar donante' }).click();
  const signUp = agent.locator('[data-acquisition]').filter({ hasText: 'Dora Donante' });
  await expect(signUp.getByText('En espera')).toBeVisible({ timeout: 20_000 });
  await expect(signUp).toContainText('$ 3.000');
  await expect(signUp.getByText(/Pasa a la organización/)).toBeVisible();
  await screenshotAll(agent, 'agency-work-area');
  // The operator is nobody in the organisation's manage area.
  const manage = await agent.request.get('/manage/api/donations');
  expect(manage.status()).toBe(403);
  await phone.close();
});
