import { Paper, Text, Transition } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import classes from './SaveStatusBanner.module.css';
import type { SaveStatus } from './useSaveStatus';

const tone: Record<Exclude<SaveStatus, 'idle'>, { bg: string; c: string }> = {
  saving: { bg: 'gray.2', c: 'gray.9' },
  saved: { bg: 'green.8', c: 'white' },
  error: { bg: 'red.8', c: 'white' },
};

const text = {
  saving: <FormattedMessage id="saveStatus.saving" defaultMessage="guardando..." />,
  saved: <FormattedMessage id="saveStatus.saved" defaultMessage="Guardado correctamente" />,
  error: <FormattedMessage id="saveStatus.error" defaultMessage="Error al guardar" />,
};

/** Top-centre notice driven by useSaveStatus(). */
export function SaveStatusBanner({ status, visible }: { status: SaveStatus; visible: boolean }) {
  return (
    <div className={classes.anchor} role="status" aria-live="polite">
      {status !== 'idle' && (
        <Transition mounted={visible} transition="slide-down" duration={200}>
          {(style) => (
            <Paper style={style} shadow="md" radius="xl" px="lg" py={6} bg={tone[status].bg} data-save-status={status}>
              <Text size="sm" fw={600} c={tone[status].c}>
                {text[status]}
              </Text>
            </Paper>
          )}
        </Transition>
      )}
    </div>
  );
}
