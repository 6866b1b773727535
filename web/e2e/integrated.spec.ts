import { expect, test, type Page } from '@playwright/test';
import { DEMO_ORG, ensureEnabledOrg, pageApi, shardValue, signIn } from './campaign-helpers';
import { screenshotAll, viewports } from './screens';

// Issue #13, integrated payments on /manage/settings/gateways: the payout bank account (a wrong CBU check digit is
// a field error first, the saved number is shown masked, unsaved edits ask before being thrown away).
// Runs against the real stack (deploy/stack.sh test … with its env sourced).

test.describe.configure({ mode: 'serial', timeout: 120_000 });
test.use({ actionTimeout: 15_000 });

const MACRO_CBU = '2850590940090418135201';

test.beforeAll(() => {
  ensureEnabledOrg();
  // This run starts from no bank account.
  shardValue(`DELETE FROM payment_processors WHERE organization_id = '${DEMO_ORG}'`);
  shardValue(`DELETE FROM bank_accounts WHERE organization_id = '${DEMO_ORG}'`);
  shardValue(`UPDATE organizations SET features = '{}' WHERE organization_id = '${DEMO_ORG}'`);
});

test.beforeEach(async ({ page }) => {
  await page.setViewportSize(viewports.desktop);
  await signIn(page);
});

const block = (page: Page) => page.locator('[data-gateway="integrated_payments"]');

async function openIntegrated(page: Page) {
  await page.goto('/manage/settings/gateways');
  await page.getByRole('button', { name: 'Pagos integrados' }).click();
  await expect(block(page).getByTestId('bank-account')).toBeVisible();
}

test('bank account: a wrong CBU check digit is a field error, the saved account shows masked', async ({ page }) => {
  await openIntegrated(page);
  await expect(block(page).getByText('Todavía no cargaste la cuenta')).toBeVisible();
  await block(page).getByRole('button', { name: 'Agregar cuenta bancaria' }).click();
  const modal = page.getByRole('dialog', { name: 'Agregar cuenta bancaria' });
  await expect(modal).toBeVisible();

  // Nothing filled: every required field says so, and the summary asks to check them.
  await modal.getByRole('button', { name: 'Guardar cuenta' }).click();
  await expect(modal.getByRole('alert')).toContainText('Revisa los campos marcados');
  await expect(modal.getByText('Este campo es obligatorio.')).toHaveCount(6);

  // The bank list filters as typed, case-insensitively; Argentina asks no account type.
  await modal.getByRole('combobox', { name: 'Banco' }).fill('macro');
  await page.getByRole('option', { name: 'Banco Macro' }).click();
  await expect(modal.getByRole('combobox', { name: 'Tipo de cuenta' })).toHaveCount(0);
  await modal.getByLabel('Número de cuenta').fill(MACRO_CBU.slice(0, 21) + '2');
  await modal.getByLabel('Nombre del contacto').fill('Ana');
  await modal.getByLabel('Apellido del contacto').fill('Pérez');
  await modal.getByLabel('E-mail del contacto').fill('tesoreria@demo.aporta.test');
  await modal.getByLabel('Teléfono del contacto').fill('+54 11 5555-1234');
  await modal.getByRole('button', { name: 'Guardar cuenta' }).click();
  await expect(modal.getByText('un dígito verificador no coincide')).toBeVisible();
  expect(shardValue(`SELECT count(*) FROM bank_accounts WHERE organization_id = '${DEMO_ORG}'`)).toBe('0');
  await screenshotAll(page, 'bank-account-invalid', false);

  await modal.getByLabel('Número de cuenta').fill(MACRO_CBU);
  await modal.getByRole('button', { name: 'Guardar cuenta' }).click();
  await expect(modal).toBeHidden();
  const card = block(page).getByTestId('bank-account');
  await expect(card.locator('[data-field="bank_name"]')).toHaveText('Banco Macro');
  await expect(card.locator('[data-field="account_number"]')).toHaveText('•••• 5201');
  await expect(card).not.toContainText(MACRO_CBU);
  await screenshotAll(page, 'bank-account-saved');

  // The API answers the number masked too; at rest it is sealed.
  const res = await pageApi<{ bank_accounts: { account_number: string }[] }>(page, 'GET', '/manage/api/bank_accounts');
  expect(res.body.bank_accounts.map((a) => a.account_number)).toEqual(['•••• 5201']);
  expect(shardValue(`SELECT position('0418135201' in encode(account_number, 'escape')) FROM bank_accounts WHERE organization_id = '${DEMO_ORG}'`)).toBe('0');
});

test('bank account edit: unsaved changes ask before being discarded', async ({ page }) => {
  await openIntegrated(page);
  await block(page).getByRole('button', { name: 'Editar' }).click();
  const modal = page.getByRole('dialog', { name: 'Editar cuenta bancaria' });
  await expect(modal.getByRole('note')).toContainText('un cambio vale para las próximas transferencias');
  await expect(modal.getByLabel('Nombre del contacto')).toHaveValue('Ana');

  // Unchanged: Cancel closes at once.
  await modal.getByRole('button', { name: 'Cancelar' }).click();
  await expect(modal).toBeHidden();

  await block(page).getByRole('button', { name: 'Editar' }).click();
  await modal.getByLabel('Nombre del contacto').fill('Eva');
  await page.keyboard.press('Escape');
  const confirm = page.getByRole('dialog', { name: '¿Descartar los cambios?' });
  await expect(confirm).toBeVisible();
  await screenshotAll(page, 'bank-account-discard', false);
  await confirm.getByRole('button', { name: 'Seguir editando' }).click();
  await expect(modal.getByLabel('Nombre del contacto')).toHaveValue('Eva');
  await modal.getByRole('button', { name: 'Cancelar' }).click();
  await confirm.getByRole('button', { name: 'Descartar' }).click();
  await expect(modal).toBeHidden();
  await expect(block(page).getByTestId('bank-account')).toContainText('Ana Pérez');

  // Saved without retyping the number: the stored one stays.
  await block(page).getByRole('button', { name: 'Editar' }).click();
  await modal.getByLabel('Nombre del contacto').fill('Eva');
  await modal.getByRole('button', { name: 'Guardar cuenta' }).click();
  await expect(modal).toBeHidden();
  await expect(block(page).getByTestId('bank-account')).toContainText('Eva Pérez');
  await expect(block(page).locator('[data-field="account_number"]')).toHaveText('•••• 5201');
});

const item = (page: Page, family: string, status: 'active' | 'inactive') =>
  block(page).locator(`[data-processor="${family}"][data-status="${status}"]`);

test('local payments: setup with a descriptor, global payments not available on the plan', async ({ page }) => {
  await openIntegrated(page);
  await expect(item(page, 'local_payments', 'inactive')).toContainText('Costo por cobro aprobado: 3.99 %');

  // Global payments without the flag: Choose explains, links to the plans and records the click.
  await item(page, 'global_payments', 'inactive').getByRole('button', { name: 'Elegir' }).click();
  const note = page.getByRole('note').filter({ hasText: 'no están disponibles en tu plan' });
  await expect(note).toBeVisible();
  await expect(note.getByRole('link', { name: 'Ver planes' })).toHaveAttribute('href', '/account/subscriptions/choose');
  await screenshotAll(page, 'integrated-not-available', false);
  await expect
    .poll(() => shardValue(`SELECT count(*) FROM track_events WHERE organization_id = '${DEMO_ORG}' AND event = 'click_disabled_global_payments_message'`))
    .toBe('1');
  await page.keyboard.press('Escape');

  await item(page, 'local_payments', 'inactive').getByRole('button', { name: 'Elegir' }).click();
  const modal = page.getByRole('dialog', { name: 'Pagos locales' });
  await expect(modal.getByText('Para activar Pagos locales necesitamos:')).toBeVisible();
  await screenshotAll(page, 'integrated-setup-intro', false);
  await modal.getByRole('button', { name: 'Continuar' }).click();
  const descriptor = modal.getByLabel('Nombre en el resumen de tarjeta');
  await descriptor.fill('Demo "2026"');
  await modal.getByRole('button', { name: 'Activar' }).click();
  await expect(modal.getByText('El descriptor no puede contener')).toBeVisible();
  await descriptor.fill('Fundación Demo');
  await expect(modal.getByText('MP*Fundación Demo')).toBeVisible();
  await screenshotAll(page, 'integrated-setup-local', false);
  await modal.getByRole('button', { name: 'Activar' }).click();
  const success = page.getByRole('dialog', { name: '¡Pagos locales activados!' });
  await expect(success).toBeVisible();
  await success.getByRole('button', { name: 'Entendido' }).click();
  const active = item(page, 'local_payments', 'active');
  await expect(active.locator('[data-field="descriptor"]')).toHaveText('MP*Fundación Demo');
  await expect(active.locator('[data-field="activated_at"]')).toHaveText(/^\p{L}+ \d{2}, \d{4} - \d{2}:\d{2}$/u);
  // One local processor without the flag: no second Choose.
  await expect(item(page, 'local_payments', 'inactive')).toHaveCount(0);
});

test('global payments: rules required, retry rule saved, discarded after confirming', async ({ page }) => {
  // Staff granted the flag (the console's audited endpoint is covered by the Go tests).
  shardValue(`UPDATE organizations SET features = '{global_payments}' WHERE organization_id = '${DEMO_ORG}'`);
  await openIntegrated(page);
  await item(page, 'global_payments', 'inactive').getByRole('button', { name: 'Elegir' }).click();
  const modal = page.getByRole('dialog', { name: 'Pagos globales' });
  await expect(modal.getByText('Las reglas que deciden qué cobros pasan por pagos globales.')).toBeVisible();
  await modal.getByRole('button', { name: 'Continuar' }).click();
  await modal.getByLabel('Nombre en el resumen de tarjeta').fill('Fundación Demo');
  await modal.getByRole('button', { name: 'Activar' }).click();
  await expect(modal.getByText('Elige al menos una regla.')).toBeVisible();
  await modal.getByRole('switch', { name: 'Reintentar con pagos globales los cobros que tu pasarela rechace' }).click();
  await expect(modal.getByText('Elige al menos una regla.')).toHaveCount(0);
  await screenshotAll(page, 'integrated-setup-global', false);
  await modal.getByRole('button', { name: 'Activar' }).click();
  await page.getByRole('dialog', { name: '¡Pagos globales activados!' }).getByRole('button', { name: 'Entendido' }).click();
  const active = item(page, 'global_payments', 'active');
  await expect(active.locator('[data-field="descriptor"]')).toHaveText('APORTA*Fundación Demo');
  await expect(active.locator('[data-field="rules"]')).toHaveText('Reintenta los cobros rechazados');
  await screenshotAll(page, 'integrated-active');

  await active.getByRole('button', { name: 'Descartar' }).click();
  const confirm = page.getByRole('dialog', { name: '¿Descartar Pagos globales?' });
  await confirm.getByRole('button', { name: 'Descartar' }).click();
  await expect(confirm).toBeHidden();
  await expect(item(page, 'global_payments', 'active')).toHaveCount(0);
  await expect(item(page, 'global_payments', 'inactive')).toBeVisible();
  expect(shardValue(`SELECT count(*) FROM payment_processors WHERE organization_id = '${DEMO_ORG}' AND family = 'global_payments'`)).toBe('0');
});
