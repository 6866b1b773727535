import type { ReactNode } from 'react';
import { csrfToken } from '../../api/client';
import { Button } from '../../components/variants';
import type { ReturnTo } from './api';

/**
 * A plain HTML form post to /auth/<gateway>: the server answers with a redirect to the gateway's authorization
 * page, so this is a real navigation, not a fetch. The page's CSRF token travels as authenticity_token.
 */
export function OAuthConnectForm({ gateway, returnTo, children }: { gateway: string; returnTo: ReturnTo; children: ReactNode }) {
  return (
    <form method="post" action={`/auth/${gateway}`}>
      <input type="hidden" name="authenticity_token" value={csrfToken() ?? ''} />
      <input type="hidden" name="return_to" value={returnTo} />
      <Button type="submit">{children}</Button>
    </form>
  );
}
