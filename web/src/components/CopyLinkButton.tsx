import type { ReactNode } from 'react';
import { useClipboard } from '@mantine/hooks';
import { FormattedMessage } from 'react-intl';
import { Button } from './variants';

const COPIED_MS = 3000;

/** A button that copies value and says so for a few seconds (announced: aria-live). */
export function CopyButton({ value, copy, copied }: { value: string; copy: ReactNode; copied: ReactNode }) {
  const clipboard = useClipboard({ timeout: COPIED_MS });
  return (
    <Button variant={clipboard.copied ? 'secondary' : 'outline'} onClick={() => clipboard.copy(value)} aria-live="polite">
      {clipboard.copied ? copied : copy}
    </Button>
  );
}

export function CopyLinkButton({ url }: { url: string }) {
  return (
    <CopyButton
      value={url}
      copy={<FormattedMessage id="copyLink.copy" defaultMessage="Copiar enlace" />}
      copied={<FormattedMessage id="copyLink.copied" defaultMessage="¡Enlace copiado!" />}
    />
  );
}
