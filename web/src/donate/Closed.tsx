import { useIntl } from 'react-intl';
import type { PublicCampaign } from './api';
import { m } from './messages';

/**
 * Shown instead of the form when the campaign's organisation cannot take donations now (no usable gateway
 * connection, or not accepting new donations): a plain explanation, not an error.
 */
export function Closed({ campaign }: { campaign: PublicCampaign }) {
  const intl = useIntl();
  return (
    <section className="closed" role="status" aria-labelledby="closed-title" data-closed-reason={campaign.closed_reason ?? ''}>
      <div className="closed-icon" aria-hidden>
        <svg width="36" height="36" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <circle cx="12" cy="12" r="9" />
          <path d="M12 7v5l3 2" />
        </svg>
      </div>
      <h2 id="closed-title">{intl.formatMessage(m.closedTitle)}</h2>
      <p className="muted">{intl.formatMessage(m.closedBody, { organization: campaign.organization_name })}</p>
    </section>
  );
}
