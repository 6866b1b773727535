import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { csrfToken } from '../../api/client';
import type { PaymentGateways } from '../../api/types.gen';
import { Button } from '../../components/variants';
import { gatewaysQuery, type ReturnTo } from './api';

/**
 * A plain HTML form post to /auth/<gateway>: the server answers with a redirect to the gateway's authorization
 * page, so this is a real navigation, not a fetch. The page's CSRF token travels as authenticity_token, and the
 * organisation the page shows (the gateways list's) as organization_id: a navigation cannot send the API's header.
 */
export function OAuthConnectForm({ gateway, returnTo, children }: { gateway: string; returnTo: ReturnTo; children: ReactNode }) {
  const list = useQueryClient().getQueryData<PaymentGateways>(gatewaysQuery().queryKey);
  return (
    <form method="post" action={`/auth/${gateway}`}>
      <input type="hidden" name="authenticity_token" value={csrfToken() ?? ''} />
      {list?.organization_id && <input type="hidden" name="organization_id" value={list.organization_id} />}
      <input type="hidden" name="return_to" value={returnTo} />
      <Button type="submit">{children}</Button>
    </form>
  );
}
