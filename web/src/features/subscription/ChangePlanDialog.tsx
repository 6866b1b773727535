import { Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { FormModal } from '../../components/FormModal';
import { showToast } from '../../components/Toasts';
import { changePlan, paidPlans, type Plan, type SubscriptionPage } from './api';

/**
 * Change the bought plan (README "Subscription"): a dearer plan of the same period applies at once and the difference is charged
 * pro rata; any other plan from the next period. The confirmation says which before it happens.
 */
export function ChangePlanDialog({ opened, onClose, plans, current, nextChargeOn, onChanged }: {
  opened: boolean; onClose: () => void; plans: Plan[]; current: Plan; nextChargeOn: string; onChanged: (page: SubscriptionPage) => Promise<unknown>;
}) {
  const intl = useIntl();
  const [code, setCode] = useState<string | null>(null);
  const choices = [...paidPlans(plans, 'monthly'), ...paidPlans(plans, 'yearly')].filter((p) => p.code !== current.code);
  const chosen = choices.find((p) => p.code === code);
  const upgrade = chosen && chosen.period === current.period && chosen.localize_price.minor > current.localize_price.minor;
  const period = (p: Plan) => p.period === 'yearly'
    ? intl.formatMessage({ id: 'pricing.yearly', defaultMessage: 'Anual' })
    : intl.formatMessage({ id: 'pricing.monthly', defaultMessage: 'Mensual' });
  return (
    <FormModal opened={opened} onClose={() => { setCode(null); onClose(); }}
      title={<FormattedMessage id="billing.changePlan" defaultMessage="Cambiar plan" />}
      subtitle={<FormattedMessage id="billing.changePlan.rule" defaultMessage="Un plan superior del mismo período se aplica ya y cobramos la diferencia por los días que quedan; cualquier otro cambio empieza en el próximo período." />}
      confirm={<FormattedMessage id="billing.changePlan.confirm" defaultMessage="Confirmar cambio" />}
      submit={async () => {
        if (!chosen) return false;
        const res = await changePlan(chosen.code);
        await onChanged(res);
        showToast({
          type: 'success',
          message: res.change === 'upgrade'
            ? intl.formatMessage({ id: 'billing.changePlan.upgraded', defaultMessage: 'Ya tienes el plan {plan}. Cobramos {amount} por el resto del período.' }, { plan: chosen.tier_name, amount: res.charged?.formatted ?? '—' })
            : intl.formatMessage({ id: 'billing.changePlan.scheduled', defaultMessage: 'El plan {plan} empieza el {date}.' }, { plan: chosen.tier_name, date: nextChargeOn }),
        });
        setCode(null);
        return true;
      }}>
      <Radio.Group value={code} onChange={setCode} name="plan_code" label={intl.formatMessage({ id: 'billing.changePlan.choose', defaultMessage: 'Nuevo plan' })}>
        <Stack gap="xs" mt="xs">
          {choices.map((p) => (
            <Radio key={p.code} value={p.code} data-testid={`change-plan-${p.code}`}
              label={`${p.tier_name} · ${period(p)} · ${p.localize_price.formatted}`} />
          ))}
        </Stack>
      </Radio.Group>
      {chosen && (
        <Text size="sm" data-testid="change-plan-effect">
          {upgrade
            ? <FormattedMessage id="billing.changePlan.now" defaultMessage="Se aplica ahora: cobramos la diferencia por los días que quedan del período." />
            : <FormattedMessage id="billing.changePlan.later" defaultMessage="Se aplica desde el {date}, con su precio." values={{ date: nextChargeOn }} />}
        </Text>
      )}
    </FormModal>
  );
}
