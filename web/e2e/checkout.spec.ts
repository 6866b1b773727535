// Buying a plan (#14), as one flow: a trial organisation downloads a QR; its trial ends (the subscription workflow started
// with a short trial) and the QR is refused with the plan hint; /account/subscriptions/choose → the payment step → a card
// tokenised with the PLATFORM's public key and charged on the platform's sandbox account → the plan is active and its
// invoice PDF downloads; then the settings page: the payment method changed to CBU direct debit (check digits refused,
// mandate recorded), a renewal the bank rejects (the administrators are e-mailed) and its retry that the bank confirms,
// and cancel.
import { expect as baseExpect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ADMIN, createPublishedCampaign, DEMO_ORG, ensureEnabledOrg, outboxMail, screenshotAll, shardValue, signIn, TEST_CVV, TEST_VISA } from './campaign-helpers';

// Lazy pages load slowly on a loaded machine (make test runs this after the Go suite): 15 s per assertion, still bounded.
const expect = baseExpect.configure({ timeout: 15_000 });

/** The stack's Temporal CLI: the test drives the workflows the way an operator would (no endpoint of the product). */
function temporal(...args: string[]) {
  const bin = process.env.APORTA_TEMPORAL_BIN ?? 'temporal';
  return execFileSync(bin, [...args, '--address', process.env.APORTA_TEMPORAL_ADDR ?? '127.0.0.1:7233'], { stdio: 'pipe', encoding: 'utf8', timeout: 30_000 });
}

/**
 * The demo organisation as an original customer whose 90-day trial is shortened to `seconds`: its subscription workflow is
 * started again with the Timing the Go tests use, so the trial really ends (EndTrial) while the test watches.
 */
function startShortTrial(seconds: number) {
  const id = `subscription/${DEMO_ORG}`;
  try {
    temporal('workflow', 'terminate', '--workflow-id', id, '--reason', 'e2e: a short trial');
  } catch {
    // none running
  }
  shardValue(`UPDATE organization_subscriptions SET status = 'ended' WHERE organization_id = '${DEMO_ORG}' AND status <> 'ended'`);
  shardValue(`UPDATE organizations SET plan_code = 'original', subscription_status = 'none', commission_bps = 0, accepting_donations = true,
    trial_started_at = NULL, trial_ends_at = NULL WHERE organization_id = '${DEMO_ORG}'`);
  const ns = (s: number) => s * 1_000_000_000;
  temporal('workflow', 'start', '--workflow-id', id, '--task-queue', 'trials', '--type', 'Workflow',
    '--input', JSON.stringify({ organization_id: DEMO_ORG, timing: { trial_length: ns(seconds), reminders: [ns(Math.floor(seconds / 2))] } }));
}

/** The organisation's live subscription. */
const liveSubscription = () =>
  shardValue(`SELECT id FROM organization_subscriptions WHERE organization_id = '${DEMO_ORG}' AND status <> 'ended'`);

/** The demo organisation with no bought subscription, under the post-trial restriction. */
function restricted() {
  shardValue(`UPDATE organization_subscriptions SET status = 'ended' WHERE organization_id = '${DEMO_ORG}' AND status <> 'ended'`);
  shardValue(`UPDATE organizations SET plan_code = 'original', subscription_status = 'restricted', commission_bps = 350,
    accepting_donations = false WHERE organization_id = '${DEMO_ORG}'`);
}

/** A card on the checkout form; the holder picks the sandbox's answer (APRO approves, OTHE declines). A number saved before
 * is the same saved card, holder and all, so the declined case uses its own card. */
async function fillCard(page: Page, holder: string, card = { number: TEST_VISA, brand: 'visa' }) {
  await page.getByLabel('Número de tarjeta').pressSequentially(card.number.replace(/\s/g, ''), { delay: 10 });
  await expect(page.locator(`[data-brand="${card.brand}"]`)).toBeVisible();
  await page.getByLabel('Vencimiento').pressSequentially('1130');
  await page.getByLabel('Código de seguridad').fill(TEST_CVV);
  await page.getByLabel(/Nombre del titular/).fill(holder);
  await page.getByLabel('Número de documento del titular').fill('30111222');
}

test('trial QR, trial ends, buy Professional yearly by card, invoice PDF, CBU debit with a failed renewal retried, cancel', async ({ page }) => {
  test.setTimeout(300_000);
  ensureEnabledOrg();
  // Card data goes to the gateway's tokeniser only: never to Aporta's API.
  const toAporta: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).origin === new URL(page.url() || 'http://x').origin && r.postData()) toAporta.push(r.postData()!);
  });
  try {
    await signIn(page);
    const title = `Prueba QR ${Date.now()}`;
    await createPublishedCampaign(page, title);
    // In the trial: the QR downloads.
    const status = () => shardValue(`SELECT subscription_status FROM organizations WHERE organization_id = '${DEMO_ORG}'`);
    startShortTrial(3600);
    await expect.poll(status, { timeout: 30_000 }).toBe('trial');
    const qrButton = () => page.getByRole('row').filter({ hasText: title }).getByRole('button', { name: `Código QR de ${title}` });
    await page.goto('/manage/campaigns');
    await qrButton().click();
    const qr = page.getByRole('dialog');
    await expect(qr.getByRole('img', { name: 'Vista previa del código QR' })).toBeVisible();
    await qr.getByRole('button', { name: 'Descargar' }).click();
    const [svg] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: '.svg' }).click()]);
    expect(svg.suggestedFilename()).toMatch(/\.svg$/);
    expect(readFileSync(await svg.path(), 'utf8')).toContain('<svg');

    // The trial ends (the workflow started again with a trial of seconds, whose own timer ends it): the QR is refused
    // with the plan hint.
    startShortTrial(4);
    await expect.poll(status, { timeout: 60_000 }).toBe('restricted');
    await page.goto('/manage/campaigns');
    await qrButton().click();
    const hint = page.getByRole('dialog').getByTestId('qr-locked');
    await expect(hint).toBeVisible();
    await expect(hint.getByRole('link', { name: 'Ver planes' })).toHaveAttribute('href', '/pricing');

    await page.goto('/account/subscriptions/choose');
    await expect(page.getByRole('heading', { name: 'Elige tu plan' })).toBeVisible();
    await page.getByText('Anual', { exact: true }).click();
    await expect(page).toHaveURL(/period=yearly/);
    await screenshotAll(page, 'checkout-plans');
    await page.getByRole('button', { name: 'Elegir Professional' }).click();
    await expect(page).toHaveURL(/plan=professional/);
    await expect(page.getByTestId('chosen-plan')).toContainText('Professional');
    // The ARS note: the list price in pesos at the MEP rate, with the rate's source and day.
    const note = page.getByTestId('mep-note');
    await expect(note).toContainText('1490.00 USD');
    await expect(note).toContainText(/\$ [\d.]+,\d\d \(\$ [\d.]+,\d\d por dólar, [^,]+, /);

    // The selector, "choose other" back to it, then the card.
    await page.getByTestId('mode-cbu').click();
    await expect(page.getByLabel('CBU de la cuenta a debitar')).toBeVisible();
    await page.getByRole('button', { name: 'Elegir otro medio de pago' }).click();
    await screenshotAll(page, 'checkout-payment-modes');
    await page.getByTestId('mode-card').click();
    await fillCard(page, 'APRO');
    await screenshotAll(page, 'checkout-card');
    await page.getByRole('button', { name: /^Pagar / }).click();

    const done = page.getByRole('dialog');
    await expect(done.getByText('¡Tu plan está activo!')).toBeVisible({ timeout: 30_000 });
    await screenshotAll(page, 'checkout-success', false);
    expect(toAporta.join('\n')).not.toContain('4509953566233704');
    expect(toAporta.join('\n')).not.toMatch(/"(security_code|card_number)"/);
    await done.getByRole('link', { name: 'Ver mi suscripción' }).click();

    await expect(page).toHaveURL(/\/manage\/settings\/subscription/);
    const current = page.getByTestId('billing-current');
    await expect(current).toContainText('Professional');
    await expect(current).toContainText('Anual');
    await expect(current).toContainText('VISA ···· 3704');
    await expect(page.getByTestId('invoices')).toContainText('Pagada');
    // Paid in pesos at the MEP rate in force, which the invoice keeps.
    await expect(page.getByTestId('invoice-mep').first()).toContainText(/^1490\.00 USD a \$ [\d.]+,\d\d por dólar$/);
    expect(shardValue(`SELECT plan_code FROM organizations WHERE organization_id = '${DEMO_ORG}'`)).toBe('professional_yearly');
    await screenshotAll(page, 'subscription-settings');

    // The paid year's invoice as a PDF, read back with pdftotext: made out to the organisation, with the plan, the
    // period, the amount and the MEP note.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('invoice-pdf').first().click()]);
    expect(download.suggestedFilename()).toMatch(/^aporta-professional_yearly-\d{4}-\d{2}-\d{2}\.pdf$/);
    const pdf = readFileSync(await download.path());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-', '-'], { input: pdf }).toString().replace(/\s+/g, ' ');
    expect(text).toContain('Factura de suscripción a Aporta');
    expect(text).toContain('Professional (anual)');
    expect(text).toContain('ARS');
    // Charged at the MEP rate in force, which the invoice names with its source and day.
    expect(text).toMatch(/Precio de lista: 1490\.00 USD, pagado en pesos argentinos al tipo de cambio MEP de \$ [\d.]+,\d\d por dólar \([^)]+, \d\d\/\d\d\/\d{4}\)\./);

    // Upgrade to Partner yearly: at once, the difference charged pro rata in an invoice of its own.
    await page.getByRole('button', { name: 'Cambiar plan' }).click();
    const change = page.getByRole('dialog');
    await change.getByTestId('change-plan-partner_yearly').click();
    await expect(change.getByTestId('change-plan-effect')).toContainText('Se aplica ahora');
    await screenshotAll(page, 'subscription-change-plan', false);
    await change.getByRole('button', { name: 'Confirmar cambio' }).click();
    await expect(change).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByText(/Ya tienes el plan Partner/)).toBeVisible();
    await expect(current).toContainText('Partner');
    await expect(page.getByTestId('invoices')).toContainText('Partner (diferencia prorrateada)');
    expect(shardValue(`SELECT plan_code FROM organizations WHERE organization_id = '${DEMO_ORG}'`)).toBe('partner_yearly');
    // A downgrade waits for the next period.
    await page.getByRole('button', { name: 'Cambiar plan' }).click();
    await change.getByTestId('change-plan-essential_yearly').click();
    await expect(change.getByTestId('change-plan-effect')).toContainText('Se aplica desde el');
    await change.getByRole('button', { name: 'Confirmar cambio' }).click();
    await expect(change).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByTestId('billing-next-plan')).toHaveText('Essential');
    expect(shardValue(`SELECT plan_code FROM organizations WHERE organization_id = '${DEMO_ORG}'`)).toBe('partner_yearly');

    // Change to CBU direct debit: wrong check digits are refused by the server, in Spanish.
    await page.getByRole('button', { name: 'Cambiar medio de pago' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('mode-cbu').click();
    await dialog.getByLabel('CBU de la cuenta a debitar').fill('2850590940090418135202');
    await dialog.getByRole('checkbox').check();
    await dialog.getByRole('button', { name: 'Guardar medio de pago' }).click();
    await expect(dialog.getByRole('alert')).toContainText('El CBU no es válido');
    await dialog.getByLabel('CBU de la cuenta a debitar').fill('2850590940090418135201');
    await screenshotAll(page, 'subscription-cbu', false);
    await dialog.getByRole('button', { name: 'Guardar medio de pago' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(current).toContainText('Débito directo (CBU) •••• 5201');
    expect(shardValue(`SELECT count(*) FROM subscription_authorizations WHERE organization_id = '${DEMO_ORG}'
      AND kind = 'cbu' AND mandate_accepted_at IS NOT NULL AND used_at IS NOT NULL`)).not.toBe('0');

    // The next period falls due (the paid year is moved to end now) and is collected by CBU debit through the sandbox's
    // bank-debit network: the bank rejects the first debit (the administrators are e-mailed with the link to change the
    // payment method), the retry's debit is confirmed. The workflow's waits are woken by its "changed" signal, as a
    // change of payment method wakes it, instead of waiting out the retry schedule.
    const cbu = '2850590940090418135201';
    const armed = await fetch(`${process.env.APORTA_GATEWAY_URL}/__sandbox/bankdebit/outcomes`, {
      signal: AbortSignal.timeout(15_000), method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ cbu, outcomes: ['rejected:insufficient_funds', 'confirmed'] }),
    });
    expect(armed.status).toBe(204);
    const sub = liveSubscription();
    const due = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000).toISOString().replace('.000Z', 'Z');
    shardValue(`UPDATE organization_subscriptions SET paid_until = '${due}' WHERE organization_id = '${DEMO_ORG}' AND id = '${sub}'`);
    const renewal = () => shardValue(`SELECT status || '/' || attempts || '/' || payment_mode || '/' || plan_code FROM subscription_invoices
      WHERE organization_id = '${DEMO_ORG}' AND subscription_id = '${sub}' AND period_start = '${due}'`);
    await expect
      .poll(() => {
        temporal('workflow', 'signal', '--workflow-id', `billing/${DEMO_ORG}/${sub}`, '--name', 'changed');
        return renewal();
      }, { timeout: 90_000, intervals: [1_500] })
      .toBe('paid/2/cbu/essential_yearly');
    const debits = (await (await fetch(`${process.env.APORTA_GATEWAY_URL}/bankdebit/v1/debits?reference=${encodeURIComponent(`aporta-plan/${sub}/${due.replace(/[-:]/g, '')}`)}`, {
      headers: { Authorization: `Bearer ${process.env.APORTA_GATEWAY_TOKEN}` }, signal: AbortSignal.timeout(15_000),
    })).json()) as { results: { status: string; cbu: string }[] };
    expect(debits.results.map((d) => d.status)).toEqual(['rejected', 'confirmed']);
    await expect
      .poll(() => outboxMail(page.request, ADMIN.email, 'subscription_payment_failed'), { timeout: 30_000 })
      .toMatch(/\/manage\/settings\/subscription/);
    // The waiting plan took over with the renewal; the settings page shows the period paid by debit.
    expect(shardValue(`SELECT plan_code FROM organizations WHERE organization_id = '${DEMO_ORG}'`)).toBe('essential_yearly');
    await page.reload();
    await expect(current).toContainText('Essential');
    // Newest first: an earlier run's renewal of the demo organisation may be listed below it.
    const renewed = page.getByTestId('invoices').getByRole('row').filter({ hasText: 'Essential' }).filter({ hasText: 'Débito directo' }).first();
    await expect(renewed).toContainText('Pagada');
    await screenshotAll(page, 'subscription-cbu-renewed');

    // Cancel: the plan stays to the end of the paid year.
    await page.getByRole('button', { name: 'Cancelar suscripción' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancelar suscripción' }).click();
    await expect(page.locator('section[aria-labelledby="billing-plan"]').getByText('Cancelada', { exact: true })).toBeVisible();
    await expect(current).toContainText('Termina el');
    expect(shardValue(`SELECT plan_code FROM organizations WHERE organization_id = '${DEMO_ORG}'`)).toBe('essential_yearly');
  } finally {
    shardValue(`UPDATE organization_subscriptions SET status = 'ended' WHERE organization_id = '${DEMO_ORG}' AND status <> 'ended'`);
    shardValue(`UPDATE organizations SET plan_code = 'professional_monthly', subscription_status = 'active', commission_bps = 0,
      accepting_donations = true, trial_started_at = NULL, trial_ends_at = NULL WHERE organization_id = '${DEMO_ORG}'`);
  }
});

test('?plan=&period= goes straight to payment; a refused card leaves the plan as it was', async ({ page }) => {
  test.setTimeout(120_000);
  ensureEnabledOrg();
  restricted();
  try {
    await signIn(page);
    await page.goto('/account/subscriptions/choose?plan=Essential&period=monthly');
    await expect(page.getByTestId('chosen-plan')).toContainText('Essential');
    await page.getByTestId('mode-card').click();
    await fillCard(page, 'OTHE', { number: '5031 7557 3453 0604', brand: 'mastercard' });
    await page.getByRole('button', { name: /^Pagar / }).click();
    await expect(page.getByRole('alert')).toContainText('El pago fue rechazado');
    expect(shardValue(`SELECT plan_code FROM organizations WHERE organization_id = '${DEMO_ORG}'`)).toBe('original');
    await screenshotAll(page, 'checkout-declined', false);
  } finally {
    shardValue(`UPDATE organization_subscriptions SET status = 'ended' WHERE organization_id = '${DEMO_ORG}' AND status <> 'ended'`);
    shardValue(`UPDATE organizations SET plan_code = 'professional_monthly', subscription_status = 'active', commission_bps = 0,
      accepting_donations = true, trial_started_at = NULL, trial_ends_at = NULL WHERE organization_id = '${DEMO_ORG}'`);
  }
});
