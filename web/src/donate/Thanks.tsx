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

// A bank debit's page waits for the bank's answer: it reads the server's state again every few seconds, a bounded number
// of times (about two minutes); the e-mail tells the donor later otherwise.
const BANK_POLL_MS = 3000;
const BANK_POLLS = 40;

/**
 * The thank-you page, loaded from the server by its signed reference, so a reload or a shared link shows it again. It is
 * also where the bank sends a bank-debit donor back: pending, approved or rejected as the server's records say (the
 * address's query carries only the reference, never an outcome).
 */
export function Thanks({ campaign, receiptRef }: { campaign: PublicCampaign; receiptRef: string }) {
  const intl = useIntl();
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const [failed, setFailed] = useState(false);
  const [polls, setPolls] = useState(0);

  useEffect(() => {
    if (!receiptRef) {
      setFailed(true);
      return;
    }
    call<Receipt>(`${campaignPath(campaign.slug)}/receipts/${encodeURIComponent(receiptRef)}`)
      .then(setReceipt)
      .catch(() => {
        if (polls === 0) setFailed(true); // a later read that fails keeps the page as it was
      });
  }, [campaign.slug, receiptRef, polls]);

  const waitingForBank = Boolean(receipt?.bank_debit) && receipt?.status === 'in_process';
  useEffect(() => {
    if (!waitingForBank || polls >= BANK_POLLS) return;
    const t = setTimeout(() => setPolls((n) => n + 1), BANK_POLL_MS);
    return () => clearTimeout(t);
  }, [waitingForBank, polls]);

  const settledState = receipt ? `${receipt.status}` : failed ? 'failed' : '';
  useEffect(() => {
    if (settledState) document.getElementById('thanks-title')?.focus();
  }, [settledState]);

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
  const bank = receipt.bank_debit;
  if (bank && receipt.status === 'rejected') {
    return (
      <section className="thanks" aria-labelledby="thanks-title" data-testid="bank-rejected">
        <div className="thanks-icon failed" aria-hidden>
          <svg width="40" height="40" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round">
            <path d="M18 6 6 18M6 6l12 12" />
          </svg>
        </div>
        <h1 id="thanks-title" tabIndex={-1}>{intl.formatMessage(m.bankRejectedTitle)}</h1>
        <p className="thanks-message" data-testid="thanks-message">{receipt.message}</p>
        <a className="button-secondary" href={`/d/${campaign.slug}`}>{intl.formatMessage(m.bankRetry)}</a>
      </section>
    );
  }
  // The receipt never carries the convert token: the form's answer left it in this history entry.
  const convertToken = (history.state as { convertToken?: string } | null)?.convertToken;
  const convertUrl = donation && convertToken
    ? `/d/${encodeURIComponent(campaign.slug)}/convert/${donation.uuid}?token=${encodeURIComponent(convertToken)}`
    : null;
  return (
    <section className="thanks" aria-labelledby="thanks-title" data-testid={bank ? `bank-${receipt.status}` : undefined}>
      <div className={`thanks-icon ${bank && pending ? 'waiting' : ''}`} aria-hidden>
        {bank && pending ? (
          <span className="spinner dark" />
        ) : (
          <svg width="40" height="40" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round">
            <path d="M20 6 9 17l-5-5" />
          </svg>
        )}
      </div>
      <h1 id="thanks-title" tabIndex={-1}>
        {intl.formatMessage(bank && pending ? m.bankPendingTitle : ev ? m.eventThanksTitle : m.thanksTitle)}
      </h1>
      {display && <p className="thanks-message" data-testid="thanks-message" aria-live="polite">{display}</p>}
      {!(bank && pending) && (
        <p className="muted">
          {intl.formatMessage(pending ? m.thanksPending : donation?.recurrency === 1 ? m.thanksMonthly : m.thanksOnce)}
        </p>
      )}
      <dl className="event-facts" data-testid="thanks-summary">
        {donation && (
          <>
            <dt>{intl.formatMessage(m.thanksAmount)}</dt>
            <dd>{donation.amount.formatted}</dd>
            {bank && (
              <>
                <dt>{intl.formatMessage(m.bankBank)}</dt>
                <dd>{bank.bank}</dd>
              </>
            )}
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
