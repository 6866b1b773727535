import { List, Stack, Text, ThemeIcon } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { DialogActions, GenericModal } from '../../../components/GenericModal';
import { Button } from '../../../components/variants';
import { bankAccountsQuery, bankParamsQuery, type BankAccountForm as BankForm } from '../bank/api';
import { BankAccountForm, initialValues } from '../bank/BankAccountForm';
import { ConfirmDiscardChanges } from '../bank/BankAccountModal';
import { GLOBAL, type GatewayOption, type PaymentProcessor } from './api';
import { optionName } from './ProcessorItem';
import { ProcessorForm, processorValues, type ProcessorValues } from './ProcessorForm';

type Step = 'intro' | 'bank' | 'form' | 'success';

/**
 * The setup modal (spec §2, §4 "Gateway setup flow"): create mode starts at an intro listing the activation steps,
 * then asks for the bank account if there is none, then the processor form, then a success screen titled by
 * gateway and mode; edit mode goes straight to the form. Closing over typed values asks first; Cancel resets.
 */
export function SetupModal({ option, processor, opened, onClose, onSaved }: {
  option: GatewayOption;
  processor?: PaymentProcessor;
  opened: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const editing = !!processor;
  const isGlobal = option.id === GLOBAL;
  const accounts = useQuery(bankAccountsQuery());
  const params = useQuery(bankParamsQuery());
  const [step, setStep] = useState<Step>(editing ? 'form' : 'intro');
  const [bank, setBank] = useState<BankForm>(() => initialValues());
  const [values, setValues] = useState<ProcessorValues>(() => processorValues(processor));
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (!opened) return;
    setStep(editing ? 'form' : 'intro');
    setBank(initialValues());
    setValues(processorValues(processor));
  }, [opened, editing, processor]);

  const dirty =
    (step === 'bank' && JSON.stringify(bank) !== JSON.stringify(initialValues())) ||
    (step === 'form' && JSON.stringify(values) !== JSON.stringify(processorValues(processor)));
  const close = () => {
    setConfirming(false);
    onClose();
  };
  // As in the bank account modal: the question opens after the Escape that asked has finished propagating.
  const requestClose = () => (dirty ? window.setTimeout(() => setConfirming(true)) : close());
  const name = optionName(option.id);

  return (
    <>
      <GenericModal opened={opened} onClose={requestClose} size="lg" title={step === 'success' ? <SuccessTitle global={isGlobal} editing={editing} /> : name}>
        {step === 'intro' && (
          <Stack gap="md">
            <Text size="sm">
              <FormattedMessage id="processor.intro" defaultMessage="Para activar {gateway} necesitamos:" values={{ gateway: name }} />
            </Text>
            <List spacing="xs" size="sm" icon={<ThemeIcon size={20} radius="xl" variant="light">✓</ThemeIcon>}>
              <List.Item>
                <FormattedMessage id="processor.intro.bank" defaultMessage="La cuenta bancaria a la que transferimos lo recaudado." />
              </List.Item>
              <List.Item>
                <FormattedMessage id="processor.intro.descriptor" defaultMessage="El nombre que verán tus donantes en el resumen de su tarjeta." />
              </List.Item>
              {isGlobal && (
                <List.Item>
                  <FormattedMessage id="processor.intro.rules" defaultMessage="Las reglas que deciden qué cobros pasan por pagos globales." />
                </List.Item>
              )}
            </List>
            <Text size="sm" c="dimmed">
              <FormattedMessage id="processor.intro.fee" defaultMessage="Cada cobro aprobado tiene un costo de {fee} %." values={{ fee: option.fee }} />
            </Text>
            <DialogActions onCancel={requestClose} wrapReverse>
              <Button onClick={() => setStep(accounts.data?.length ? 'form' : 'bank')} disabled={!accounts.data}>
                <FormattedMessage id="processor.continue" defaultMessage="Continuar" />
              </Button>
            </DialogActions>
          </Stack>
        )}
        {step === 'bank' && params.data && (
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              <FormattedMessage id="processor.bankStep" defaultMessage="Primero, la cuenta bancaria a la que transferimos lo recaudado." />
            </Text>
            <BankAccountForm
              params={params.data}
              values={bank}
              onChange={setBank}
              onSaved={() => {
                void accounts.refetch();
                setStep('form');
              }}
              actions={(busy) => (
                <DialogActions onCancel={requestClose} wrapReverse>
                  <Button type="submit" loading={busy}>
                    <FormattedMessage id="processor.continue" defaultMessage="Continuar" />
                  </Button>
                </DialogActions>
              )}
            />
          </Stack>
        )}
        {step === 'form' && (
          <ProcessorForm
            option={option}
            processor={processor}
            values={values}
            onChange={setValues}
            onSaved={() => {
              onSaved();
              setStep('success');
            }}
            actions={(busy) => (
              <DialogActions onCancel={requestClose} wrapReverse>
                <Button type="submit" loading={busy}>
                  {editing ? <FormattedMessage id="processor.saveChanges" defaultMessage="Guardar cambios" /> : <FormattedMessage id="processor.activate" defaultMessage="Activar" />}
                </Button>
              </DialogActions>
            )}
          />
        )}
        {step === 'success' && (
          <Stack gap="md">
            <Text size="sm">
              <FormattedMessage id="processor.successBody" defaultMessage="Las próximas donaciones que correspondan se cobrarán con {gateway}." values={{ gateway: name }} />
            </Text>
            <Stack align="flex-end">
              <Button onClick={close}>
                <FormattedMessage id="processor.understood" defaultMessage="Entendido" />
              </Button>
            </Stack>
          </Stack>
        )}
      </GenericModal>
      <ConfirmDiscardChanges opened={confirming} onKeep={() => setConfirming(false)} onDiscard={close} />
    </>
  );
}

function SuccessTitle({ global, editing }: { global: boolean; editing: boolean }) {
  if (editing) return <FormattedMessage id="processor.successEdit" defaultMessage="Guardamos los cambios" />;
  return global ? (
    <FormattedMessage id="processor.successGlobal" defaultMessage="¡Pagos globales activados!" />
  ) : (
    <FormattedMessage id="processor.successLocal" defaultMessage="¡Pagos locales activados!" />
  );
}
