import { Alert, Box, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button } from '../../../components/variants';
import { bankAccountsQuery, bankParamsQuery } from './api';
import { accountTypeLabel } from './BankAccountForm';
import { BankAccountModal } from './BankAccountModal';

/**
 * The integrated payments block's active bank account (spec §2 "Gateways page"): the account payouts go to, masked,
 * with Edit; Add when there is none yet. A failed load shows its message.
 */
export function BankAccountCard() {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const accounts = useQuery(bankAccountsQuery());
  const params = useQuery(bankParamsQuery());
  const [open, setOpen] = useState(false);

  if (accounts.isPending || params.isPending) return <Loader size="sm" aria-label={intl.formatMessage({ id: 'bankAccount.loading', defaultMessage: 'Cargando la cuenta bancaria' })} />;
  if (accounts.isError || params.isError)
    return (
      <Alert color="red" variant="light" role="alert">
        {(accounts.error ?? params.error)?.message}
      </Alert>
    );
  const active = accounts.data[0];
  const row = (label: ReactNode, value: ReactNode, field: string) => (
    <>
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" size="sm" fw={600} m={0} data-field={field} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </>
  );

  return (
    <Paper withBorder radius="md" p="md" data-testid="bank-account">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={700}>
            <FormattedMessage id="bankAccount.title" defaultMessage="Cuenta bancaria para transferencias" />
          </Text>
          <Button variant={active ? 'outline' : 'primary'} size="sm" onClick={() => setOpen(true)}>
            {active ? <FormattedMessage id="bankAccount.edit" defaultMessage="Editar" /> : <FormattedMessage id="bankAccount.add" defaultMessage="Agregar cuenta bancaria" />}
          </Button>
        </Group>
        {active ? (
          <Box component="dl" m={0} style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 16, rowGap: 4 }}>
            {row(<FormattedMessage id="bankAccount.bank" defaultMessage="Banco" />, active.bank_name, 'bank_name')}
            {row(<FormattedMessage id="bankAccount.number" defaultMessage="Número de cuenta" />, active.account_number, 'account_number')}
            {active.account_type && row(<FormattedMessage id="bankAccount.type" defaultMessage="Tipo de cuenta" />, accountTypeLabel(intl, active.account_type), 'account_type')}
            {row(<FormattedMessage id="bankAccount.contact" defaultMessage="Contacto" />, `${active.contact_first_name} ${active.contact_last_name} · ${active.contact_email}`, 'contact')}
          </Box>
        ) : (
          <Text size="sm" c="dimmed">
            <FormattedMessage id="bankAccount.none" defaultMessage="Todavía no cargaste la cuenta a la que transferimos lo recaudado con pagos integrados." />
          </Text>
        )}
      </Stack>
      <BankAccountModal
        opened={open}
        onClose={() => setOpen(false)}
        account={active}
        params={params.data}
        onSaved={() => void queryClient.invalidateQueries({ queryKey: bankAccountsQuery().queryKey })}
      />
    </Paper>
  );
}
