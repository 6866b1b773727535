import { describe, expect, it } from 'vitest';
import { allowedByPlan, paidPlans, periodOf, type Plan } from './api';

const money = (minor: number, currency: string) => ({ minor, currency, decimal: String(minor / 100), formatted: String(minor) });
const plan = (code: string, tier_name: string, period: string): Plan => ({ code, tier_name, period, localize_price: money(1, 'ARS'), usd_price: money(1, 'USD') });

describe('subscription rules', () => {
  it('allows by the effective plan: the trial is Essential, Original is not allowed', () => {
    expect(allowedByPlan({ effective_plan_code: 'essential_monthly' })).toBe(true);
    expect(allowedByPlan({ effective_plan_code: 'original' })).toBe(false);
    expect(allowedByPlan({ effective_plan_code: '' })).toBe(false);
  });
  it('reads the period as §2 says: yearly, anything else monthly', () => {
    expect(periodOf('yearly')).toBe('yearly');
    expect(periodOf('YEARLY')).toBe('monthly');
    expect(periodOf(undefined)).toBe('monthly');
  });
  it('lists the paid plans of one period', () => {
    const plans = [plan('original', 'Original', 'monthly'), plan('essential_monthly', 'Essential', 'monthly'), plan('essential_yearly', 'Essential', 'yearly')];
    expect(paidPlans(plans, 'yearly').map((p) => p.code)).toEqual(['essential_yearly']);
    expect(paidPlans(plans, 'monthly').map((p) => p.code)).toEqual(['essential_monthly']);
  });
});
