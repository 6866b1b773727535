import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { call, campaignPath, type PublicCampaign, type PublicEvent } from './api';
import { m } from './messages';
import type { DonationResult } from './submit';

/** The thank-you page's summary (GET /api/public/campaigns/{slug}/receipts/{ref}); no e-mail or card data. */
export interface Receipt extends DonationResult {
  event?: PublicEvent;
  tickets?: { name: string; quantity: number }[];
}

/** The thank-you page, loaded from the server by its signed reference, so a reload or a shared link shows it again. */
export function Thanks({ campaign, receiptRef }: { campaign: PublicCampaign; receiptRef: string }) {
  const intl = useIntl();
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!receiptRef) {
      setFailed(true);
      return;
    }
    call<Receipt>(`${campaignPath(campaign.slug)}/receipts/${encodeURIComponent(receiptRef)}`)
      .then(setReceipt)
      .catch(() => setFailed(true));
  }, [campaign.slug, receiptRef]);

  useEffect(() => {
    if (receipt || failed) document.getElementById('thanks-title')?.focus();
  }, [receipt, failed]);

  if (failed) {
    return <p className="alert" role="alert">{intl.formatMessage(m.thanksInvalid)}</p>;
  }
  if (!receipt) {
    return (
      <div className="center" aria-busy="true">
        <span className="spinner dark" aria-hidden />
        <p className="muted">{intl.formatMessage(m.loading)}</p>
      </div>
    );
  }

  const ev = receipt.event;
  const donation = receipt.donation;
  // Keep a currency symbol on the same line as its amount.
  const display = (receipt.message ?? '').replace(/(US\$|R\$|\$U|S\/|\$) (?=\d)/g, '$1\u00a0');
  const dateFmt = (s: string | null) => (s ? intl.formatDate(s, { dateStyle: 'full', timeStyle: 'short' }) : '');
  const pending = receipt.status === 'in_process' || receipt.status === 'pending';
  // The receipt never carries the convert token: the form's answer left it in this history entry.
  const convertToken = (history.state as { convertToken?: string } | null)?.convertToken;
  const convertUrl = donation && convertToken
    ? `/d/${encodeURIComponent(campaign.slug)}/convert/${donation.uuid}?token=${encodeURIComponent(convertToken)}`
    : null;
  return (
    <section className="thanks" aria-labelledby="thanks-title">
      <div className="thanks-icon" aria-hidden>
        <svg width="40" height="40" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round">
          <path d="M20 6 9 17l-5-5" />
        </svg>
      </div>
      <h1 id="thanks-title" tabIndex={-1}>{intl.formatMessage(ev ? m.eventThanksTitle : m.thanksTitle)}</h1>
      {display && <p className="thanks-message" data-testid="thanks-message">{display}</p>}
      <p className="muted">
        {intl.formatMessage(pending ? m.thanksPending : donation?.recurrency === 1 ? m.thanksMonthly : m.thanksOnce)}
      </p>
      <dl className="event-facts" data-testid="thanks-summary">
        {donation && (
          <>
            <dt>{intl.formatMessage(m.thanksAmount)}</dt>
            <dd>{donation.amount.formatted}</dd>
            <dt>{intl.formatMessage(m.thanksFrequency)}</dt>
            <dd>{intl.formatMessage(donation.recurrency === 1 ? m.monthly : m.oneTime)}</dd>
          </>
        )}
        {ev?.category && (
          <>
            <dt>{intl.formatMessage(m.eventCategory)}</dt>
            <dd>{ev.category}</dd>
          </>
        )}
        {ev?.starts_at && (
          <>
            <dt>{intl.formatMessage(m.eventWhen)}</dt>
            <dd>{dateFmt(ev.starts_at)}</dd>
          </>
        )}
        {ev?.format && (
          <>
            <dt>{intl.formatMessage(m.eventFormat)}</dt>
            <dd>{intl.formatMessage(ev.format === 'online' ? m.eventOnline : m.eventPhysical)}</dd>
          </>
        )}
        {receipt.tickets && receipt.tickets.length > 0 && (
          <>
            <dt>{intl.formatMessage(m.eventTickets)}</dt>
            {receipt.tickets.map((t) => (
              <dd key={t.name}>{intl.formatMessage(m.eventTicketLine, { quantity: t.quantity, name: t.name })}</dd>
            ))}
          </>
        )}
      </dl>
      {donation?.recurrency === 0 && convertUrl && (
        <a className="button-secondary" href={convertUrl}>{intl.formatMessage(m.thanksConvert)}</a>
      )}
      <a className="link" href={`/d/${campaign.slug}`}>{intl.formatMessage(m.thanksBack)}</a>
    </section>
  );
}
