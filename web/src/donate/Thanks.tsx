import { useIntl } from 'react-intl';
import type { PublicCampaign } from './api';
import type { Success } from './DonationForm';
import { m } from './messages';

/** Fills the thank-you short codes in every language ({nombre}/{name}/{nome}, {monto}/{amount}/{valor}, {campaña}/{campaign}/{campanha}). */
export function fillShortCodes(tmpl: string, name: string, amount: string, campaign: string): string {
  const map: Record<string, string> = {
    '{nombre}': name, '{name}': name, '{nome}': name,
    '{monto}': amount, '{amount}': amount, '{valor}': amount,
    '{campaña}': campaign, '{campaign}': campaign, '{campanha}': campaign,
  };
  return tmpl.replace(/\{(nombre|name|nome|monto|amount|valor|campaña|campaign|campanha)\}/g, (code) => map[code] ?? code);
}

export function Thanks({ campaign, success }: { campaign: PublicCampaign; success: Success | null }) {
  const intl = useIntl();
  const isEvent = campaign.type === 'tickets' && campaign.event;
  const template = success?.thanksMessage || campaign.thanks?.instant || '';
  const message = success
    ? template
      ? fillShortCodes(template, success.firstName, success.amount, campaign.title)
      : intl.formatMessage(m.thanksDefault, { nombre: success.firstName, monto: success.amount, campaña: campaign.title })
    : '';
  // Keep a currency symbol on the same line as its amount.
  const display = message.replace(/(US\$|R\$|\$U|S\/|\$) (?=\d)/g, '$1\u00a0');
  const ev = campaign.event;
  const dateFmt = (s: string | null) => (s ? intl.formatDate(s, { dateStyle: 'full', timeStyle: 'short' }) : '');
  return (
    <section className="thanks" aria-labelledby="thanks-title">
      <div className="thanks-icon" aria-hidden>
        <svg width="40" height="40" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round">
          <path d="M20 6 9 17l-5-5" />
        </svg>
      </div>
      <h1 id="thanks-title" tabIndex={-1}>{intl.formatMessage(isEvent ? m.eventThanksTitle : m.thanksTitle)}</h1>
      {message && <p className="thanks-message" data-testid="thanks-message">{display}</p>}
      {success && (
        <p className="muted">
          {intl.formatMessage(success.status === 'in_process' || success.status === 'pending' ? m.thanksPending : success.recurrency === 1 ? m.thanksMonthly : m.thanksOnce)}
        </p>
      )}
      {isEvent && ev && (
        <dl className="event-facts">
          {ev.starts_at && (
            <>
              <dt>{intl.formatMessage(m.eventWhen)}</dt>
              <dd>{dateFmt(ev.starts_at)}</dd>
            </>
          )}
          {ev.format && (
            <>
              <dt>{intl.formatMessage(m.eventFormat)}</dt>
              <dd>{intl.formatMessage(ev.format === 'online' ? m.eventOnline : m.eventPhysical)}</dd>
            </>
          )}
        </dl>
      )}
      {success?.recurrency === 0 && success.convertUrl && (
        <a className="button-secondary" href={success.convertUrl}>{intl.formatMessage(m.thanksConvert)}</a>
      )}
      <a className="link" href={`/d/${campaign.slug}`}>{intl.formatMessage(m.thanksBack)}</a>
    </section>
  );
}
