// Plans: the public /pricing page from the country data, and the one allowedByPlan rule on the
// effective plan (a trial organisation downloads QRs; a restricted one sees the plan hint).
import { expect, test } from '@playwright/test';
import { createPublishedCampaign, DEMO_ORG, ensureEnabledOrg, screenshotAll, shardValue, signIn } from './campaign-helpers';

test('pricing lists a country\'s plans monthly and yearly, in its currency and in USD', async ({ page }) => {
  await page.goto('/pricing');
  await expect(page.getByRole('heading', { name: 'Planes' })).toBeVisible();
  const essential = page.getByTestId('plan-essential_monthly');
  await expect(essential).toContainText('$ 59.000,00');
  await expect(essential).toContainText('por mes · 49.00 USD');
  await expect(page.getByTestId('plan-partner_monthly')).toContainText('399.00 USD');
  await screenshotAll(page, 'pricing-monthly');

  await page.getByText('Anual', { exact: true }).click();
  await expect(page).toHaveURL(/period=yearly/);
  await expect(page.getByTestId('plan-professional_yearly')).toContainText('$ 1.788.000,00');
  await expect(page.getByTestId('plan-essential_monthly')).toHaveCount(0);

  await page.getByRole('combobox', { name: 'País' }).click();
  await page.getByRole('option', { name: 'Brasil' }).click();
  await expect(page.getByTestId('plan-professional_yearly')).toContainText('R$');
  await screenshotAll(page, 'pricing-yearly-br');

  // ?period= straight from a link; English.
  await page.goto('/pricing?country=CL&period=yearly&locale=en');
  await expect(page.getByRole('heading', { name: 'Plans' })).toBeVisible();
  await expect(page.getByTestId('plan-essential_yearly')).toContainText('per year · USD 490.00');
});

test('QR download follows the effective plan: allowed in the trial, refused once restricted', async ({ page }) => {
  test.setTimeout(120_000);
  ensureEnabledOrg();
  const setSubscription = (status: 'trial' | 'restricted') =>
    shardValue(`UPDATE organizations SET plan_code = 'original', subscription_status = '${status}',
      trial_started_at = now() - interval '10 days', trial_ends_at = now() + interval '80 days'
      WHERE organization_id = '${DEMO_ORG}'`);
  try {
    setSubscription('trial');
    await signIn(page);
    const title = `Prueba QR ${Date.now()}`;
    const campaign = await createPublishedCampaign(page, title, { immediate_charge: true });

    await page.goto('/manage/campaigns');
    const row = page.getByRole('row').filter({ hasText: title });
    await row.getByRole('button', { name: `Código QR de ${title}` }).click();
    await expect(page.getByRole('dialog').getByRole('img', { name: 'Vista previa del código QR' })).toBeVisible();

    setSubscription('restricted');
    await page.goto('/manage/campaigns');
    await page.getByRole('row').filter({ hasText: title }).getByRole('button', { name: `Código QR de ${title}` }).click();
    const hint = page.getByRole('dialog').getByTestId('qr-locked');
    await expect(hint).toBeVisible();
    await expect(hint.getByRole('link', { name: 'Ver planes' })).toHaveAttribute('href', '/pricing');
    await screenshotAll(page, 'qr-plan-hint', false);

    await page.goto(`/manage/campaigns/${campaign.uuid}`);
    await expect(page.getByRole('switch', { name: 'Cobrar la primera cuota mensual de inmediato' })).toBeDisabled();
  } finally {
    shardValue(`UPDATE organizations SET plan_code = 'professional_monthly', subscription_status = 'active',
      trial_started_at = NULL, trial_ends_at = NULL WHERE organization_id = '${DEMO_ORG}'`);
  }
});
