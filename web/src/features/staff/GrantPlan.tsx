import { Select, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { defineMessages, FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { ApiError } from '../../api/client';
import { FormModal } from '../../components/FormModal';
import { showToast } from '../../components/Toasts';
import { Button } from '../../components/variants';
import { grantPlan } from './api';
import { ActionPanel } from './ActionPanel';

/** The plans staff can grant: the plans table without "original", which is never bought (workflows/subscription.ValidPlanCode). */
const planNames = defineMessages({
  essential_monthly: { id: 'staff.plan.essential_monthly', defaultMessage: 'Essential mensual' },
  essential_yearly: { id: 'staff.plan.essential_yearly', defaultMessage: 'Essential anual' },
  professional_monthly: { id: 'staff.plan.professional_monthly', defaultMessage: 'Professional mensual' },
  professional_yearly: { id: 'staff.plan.professional_yearly', defaultMessage: 'Professional anual' },
  partner_monthly: { id: 'staff.plan.partner_monthly', defaultMessage: 'Partner mensual' },
  partner_yearly: { id: 'staff.plan.partner_yearly', defaultMessage: 'Partner anual' },
});

type PlanCode = keyof typeof planNames;
const isPlan = (code: string | null): code is PlanCode => !!code && Object.hasOwn(planNames, code);

/** A plan's translated name; an unknown code (a plan added on the server only) as it is. */
export const planName = (intl: IntlShape, code: string) => (isPlan(code) ? intl.formatMessage(planNames[code]) : code);

/** The "Asignar plan" section of the staff organisation page: a plan paid outside the product, with its reason audited. */
export function GrantPlanSection({ org, name }: { org: string; name: string }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [plan, setPlan] = useState<PlanCode | null>(null);
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ plan_code?: string; reason?: string }>({});

  const close = () => {
    setOpen(false);
    setPlan(null);
    setReason('');
    setErrors({});
  };

  // The server checks the reason and the plan and answers in the staff member's language; its messages are shown as they come.
  const submit = async () => {
    setErrors({});
    try {
      await grantPlan(org, plan ?? '', reason);
    } catch (e) {
      if (!(e instanceof ApiError && (e.fields.plan_code || e.fields.reason))) throw e;
      setErrors({ plan_code: e.fields.plan_code, reason: e.fields.reason });
      return false;
    }
    await queryClient.invalidateQueries({ queryKey: ['staff'] });
    showToast({
      type: 'success',
      message: intl.formatMessage({ id: 'staff.plan.granted', defaultMessage: 'Plan {plan} asignado a {org}.' }, { plan: planName(intl, plan ?? ''), org: name }),
    });
    return true;
  };

  return (
    <ActionPanel
      titleId="grant-plan-title"
      title={<FormattedMessage id="staff.plan.title" defaultMessage="Plan" />}
      hint={<FormattedMessage id="staff.plan.hint" defaultMessage="Para un pago recibido fuera de la plataforma, como una transferencia o un convenio." />}
      action={
        <Button variant="outline" onClick={() => setOpen(true)}>
          <FormattedMessage id="staff.plan.grant" defaultMessage="Asignar plan" />
        </Button>
      }
    >
      <FormModal
        opened={open}
        onClose={close}
        title={<FormattedMessage id="staff.plan.modalTitle" defaultMessage="Asignar plan a {org}" values={{ org: name }} />}
        subtitle={<FormattedMessage id="staff.plan.modalSubtitle" defaultMessage="El plan se aplica de inmediato y el motivo queda en el registro de auditoría." />}
        submit={submit}
        confirm={<FormattedMessage id="staff.plan.grant" defaultMessage="Asignar plan" />}
      >
        <Select
          label={<FormattedMessage id="staff.plan.select" defaultMessage="Plan" />}
          placeholder={intl.formatMessage({ id: 'staff.plan.choose', defaultMessage: 'Elige un plan' })}
          data={Object.entries(planNames).map(([code, message]) => ({ value: code, label: intl.formatMessage(message) }))}
          value={plan}
          onChange={(v) => {
            setPlan(isPlan(v) ? v : null);
            setErrors((e) => ({ ...e, plan_code: undefined }));
          }}
          required
          allowDeselect={false}
          error={errors.plan_code}
          comboboxProps={{ withinPortal: true }}
          data-autofocus
        />
        <Textarea
          label={<FormattedMessage id="staff.reason" defaultMessage="Motivo" />}
          description={<FormattedMessage id="staff.plan.reasonHint" defaultMessage="Por ejemplo, el pago recibido y su referencia." />}
          required
          autosize
          minRows={3}
          maxLength={500}
          value={reason}
          onChange={(e) => {
            setReason(e.currentTarget.value);
            setErrors((prev) => ({ ...prev, reason: undefined }));
          }}
          error={errors.reason}
        />
      </FormModal>
    </ActionPanel>
  );
}
