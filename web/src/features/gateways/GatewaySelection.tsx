import { Stack } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import type { Gateway, Outcome, ReturnTo } from './api';
import { GatewayChooser } from './GatewayChooser';
import { OutcomeNotice } from './OutcomeNotice';

export interface GatewaySelectionProps {
  gateways: Gateway[];
  timezone?: string;
  returnTo: ReturnTo;
  /** ?connected= / ?error= as the OAuth callback left them in the address. */
  outcome: Outcome;
  /** Drops them from the address once read, so a reload or a shared link does not repeat the notice. */
  onOutcomeRead: () => void;
  /** More blocks of the gateways list (GatewayChooser's children). */
  children?: ReactNode;
}

/** The notice of the last connection attempt above the gateways list: the body of the settings and onboarding pages. */
export function GatewaySelection({ gateways, timezone, returnTo, outcome, onOutcomeRead, children }: GatewaySelectionProps) {
  const [shown, setShown] = useState<Outcome>(outcome);
  const { connected, error } = outcome;
  useEffect(() => {
    if (!connected && !error) return;
    setShown({ connected, error });
    onOutcomeRead();
    // Keyed on the outcome itself: the callback may be a new function on every render.
  }, [connected, error]);

  return (
    <Stack gap="md">
      <OutcomeNotice outcome={shown} onClose={() => setShown({})} />
      <GatewayChooser
        gateways={gateways}
        timezone={timezone}
        returnTo={returnTo}
        initialOpen={outcome.connected}
        onConnected={(connected) => setShown({ connected })}
      >
        {children}
      </GatewayChooser>
    </Stack>
  );
}
