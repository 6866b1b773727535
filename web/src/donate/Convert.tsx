import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { call, PublicApiError, type PublicCampaign } from './api';
import { brandName } from './lib/brand';
import type { Money } from './lib/money';
import { m } from './messages';

interface ConvertInfo { uuid: string; recurrency: number; amount: Money; card_brand: string; card_last_four: string; convertible: boolean }

/** /d/{slug}/convert/{donation uuid}?token=…: turns a one-time gift into a monthly donation with the stored card. */
export function Convert({ campaign, donationUuid, token }: { campaign: PublicCampaign; donationUuid: string; token: string }) {
  const intl = useIntl();
  const [state, setState] = useState<'idle' | 'sending' | 'done' | 'error'>('idle');
  const [message, setMessage] = useState('');
  const [info, setInfo] = useState<ConvertInfo | null>(null);
  const path = `/api/public/donations/${encodeURIComponent(donationUuid)}/convert?token=${encodeURIComponent(token)}`;
  useEffect(() => {
    if (!token) return;
    call<ConvertInfo>(path)
      .then((d) => {
        setInfo(d);
        if (!d.convertible) setState(d.recurrency === 1 ? 'done' : 'error');
      })
      .catch((e) => {
        // An expired link says so (the server's message); any other failure is an invalid link.
        setMessage(e instanceof PublicApiError && e.status === 410 && e.message ? e.message : intl.formatMessage(m.convertInvalid));
        setState('error');
      });
  }, [path, token, intl]);
  async function convert() {
    setState('sending');
    try {
      await call(path, 'POST', {});
      setState('done');
    } catch (e) {
      setMessage(e instanceof PublicApiError && e.status > 0 && e.status < 500 && e.message ? e.message : intl.formatMessage(m.convertError));
      setState('error');
    }
  }
  if (!token) return <p className="alert" role="alert">{intl.formatMessage(m.convertInvalid)}</p>;
  return (
    <section className="thanks" aria-labelledby="convert-title">
      <h1 id="convert-title">{intl.formatMessage(m.convertTitle)}</h1>
      {state === 'done' ? (
        <p className="thanks-message" role="status">{intl.formatMessage(m.convertDone)}</p>
      ) : (
        <>
          <p className="muted">{intl.formatMessage(m.convertBody, { organization: campaign.organization_name })}</p>
          {info && (
            <p className="thanks-message">
              <strong>{intl.formatMessage(m.perMonth, { amount: info.amount.formatted })}</strong>
              {info.card_last_four && <span className="muted small"> · {brandName(info.card_brand)} •••• {info.card_last_four}</span>}
            </p>
          )}
          {state === 'error' && <p className="alert" role="alert">{message}</p>}
          <button type="button" className="donate-button" disabled={state === 'sending' || (info !== null && !info.convertible)} onClick={convert}>
            {state === 'sending' && <span className="spinner" aria-hidden />}
            {intl.formatMessage(m.convertButton)}
          </button>
        </>
      )}
    </section>
  );
}
