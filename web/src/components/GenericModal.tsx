import { Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button } from './variants';

export interface GenericModalProps {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  /** While an action started from the modal is pending, every way of closing it is blocked. */
  pending?: boolean;
  /** Set false for modals that must be closed through their own buttons only. */
  dismissible?: boolean;
  fullScreen?: boolean;
  size?: string | number;
}

export function GenericModal({
  opened,
  onClose,
  title,
  subtitle,
  children,
  pending = false,
  dismissible = true,
  fullScreen = false,
  size = 'md',
}: GenericModalProps) {
  const intl = useIntl();
  const closable = dismissible && !pending;
  return (
    <Modal
      opened={opened}
      onClose={() => closable && onClose()}
      closeOnEscape={closable}
      closeOnClickOutside={closable}
      withCloseButton={!fullScreen || closable}
      closeButtonProps={{
        'aria-label': intl.formatMessage({ id: 'modal.close', defaultMessage: 'Cerrar' }),
        disabled: !closable,
      }}
      fullScreen={fullScreen}
      size={size}
      centered
      aria-busy={pending}
      title={
        <Stack gap={2}>
          <Title order={2} size="h4">
            {title}
          </Title>
          {subtitle && (
            <Text size="sm" c="dimmed">
              {subtitle}
            </Text>
          )}
        </Stack>
      }
    >
      {children}
    </Modal>
  );
}

/**
 * A dialog's buttons at its foot, right-aligned: Cancel (disabled while `busy`), then the dialog's own (children).
 * With `wrapReverse` a narrow screen puts the dialog's own buttons above Cancel.
 */
export function DialogActions({ onCancel, busy, wrapReverse = false, children }: { onCancel: () => void; busy?: boolean; wrapReverse?: boolean; children: ReactNode }) {
  return (
    <Group justify="flex-end" wrap={wrapReverse ? 'wrap-reverse' : undefined}>
      <Button variant="ghost" onClick={onCancel} disabled={busy}>
        <FormattedMessage id="dialog.cancel" defaultMessage="Cancelar" />
      </Button>
      {children}
    </Group>
  );
}

export function FullScreenModal(props: Omit<GenericModalProps, 'fullScreen' | 'size'>) {
  return <GenericModal {...props} fullScreen />;
}

/** Blocks the page while work it cannot continue without is in progress; it has no way to be dismissed. */
export function SpinnerModal({ opened, label }: { opened: boolean; label: ReactNode }) {
  return (
    <Modal opened={opened} onClose={() => {}} withCloseButton={false} closeOnEscape={false} closeOnClickOutside={false} centered size="xs">
      <Stack align="center" gap="sm" py="md" role="status" aria-live="polite">
        <Loader aria-hidden />
        <Text size="sm">{label}</Text>
      </Stack>
    </Modal>
  );
}
