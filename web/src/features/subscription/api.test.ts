import { describe, expect, it } from 'vitest';
import { allowedByPlan, cbuDigits, paidPlans, periodOf, planOf, type Plan } from './api';

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
  it('finds the ?plan= tier of the period, never Original, in any case', () => {
    const plans = [plan('original', 'Original', 'monthly'), plan('professional_monthly', 'Professional', 'monthly'), plan('professional_yearly', 'Professional', 'yearly')];
    expect(planOf(plans, 'professional', 'yearly')?.code).toBe('professional_yearly');
    expect(planOf(plans, 'PROFESSIONAL', 'monthly')?.code).toBe('professional_monthly');
    expect(planOf(plans, 'original', 'monthly')).toBeUndefined();
    expect(planOf(plans, 'gold', 'monthly')).toBeUndefined();
    expect(planOf(plans, undefined, 'monthly')).toBeUndefined();
  });
  it('keeps only the digits of a typed CBU', () => {
    expect(cbuDigits('285-0590 9400 9041 8135 201')).toBe('2850590940090418135201');
  });
});
