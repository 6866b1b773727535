import { useClipboard } from '@mantine/hooks';
import { FormattedMessage } from 'react-intl';
import { Button } from './variants';

const COPIED_MS = 3000;

export function CopyLinkButton({ url }: { url: string }) {
  const clipboard = useClipboard({ timeout: COPIED_MS });
  return (
    <Button variant={clipboard.copied ? 'secondary' : 'outline'} onClick={() => clipboard.copy(url)} aria-live="polite">
      {clipboard.copied ? (
        <FormattedMessage id="copyLink.copied" defaultMessage="¡Enlace copiado!" />
      ) : (
        <FormattedMessage id="copyLink.copy" defaultMessage="Copiar enlace" />
      )}
    </Button>
  );
}
