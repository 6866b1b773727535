import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { useIntl } from 'react-intl';
import { call, campaignPath, loadCampaign, PublicApiError, type PublicCampaign } from './api';
import { Closed } from './Closed';
import { Consent } from './Consent';
import { accessibleAccent, tint } from './color';
import { Convert } from './Convert';
import { DonationForm } from './DonationForm';
import { m } from './messages';
import { parseRoute, type DonateRoute } from './route';
import { Thanks } from './Thanks';

const VIEW_DELAY_MS = 300;

/** onCountry hears the form's country as the campaign arrives, before it renders: its wording follows it (main.tsx). */
export function App({ initialPath, onCountry }: { initialPath: string; onCountry?: (country: string) => void }) {
  const intl = useIntl();
  const [route, setRoute] = useState<DonateRoute>(() => parseRoute(initialPath));
  const [campaign, setCampaign] = useState<PublicCampaign | null>(null);
  const [loadError, setLoadError] = useState<'not_found' | 'failed' | null>(null);
  const slug = route.page === 'none' ? '' : route.slug;
  // The campaign is loaded per slug only: a new onCountry (a parent's re-render) must not load it again.
  const onCountryRef = useRef(onCountry);
  useEffect(() => {
    onCountryRef.current = onCountry;
  }, [onCountry]);

  useEffect(() => {
    const onPop = () => setRoute(parseRoute(location.pathname));
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);

  useEffect(() => {
    if (!slug) {
      setLoadError('not_found');
      return;
    }
    loadCampaign(slug)
      .then((c) => {
        // The country's wording in the same update as the campaign: the form renders once (main.tsx).
        if (c.country) onCountryRef.current?.(c.country);
        setCampaign(c);
      })
      .catch((e) => setLoadError(e instanceof PublicApiError && e.status === 404 ? 'not_found' : 'failed'));
  }, [slug]);

  // campaign:view, 300 ms after the form loads.
  useEffect(() => {
    if (!campaign || route.page !== 'form') return;
    const t = setTimeout(() => {
      call(`${campaignPath(campaign.slug)}/visits`, 'POST', { event: 'campaign:view', campaign_id: campaign.uuid, style: 'custom' }).catch(() => {});
    }, VIEW_DELAY_MS);
    return () => clearTimeout(t);
  }, [campaign, route.page]);

  useEffect(() => {
    if (campaign) document.title = `${campaign.title} · ${campaign.organization_name}`;
  }, [campaign]);

  // The thank-you page's address carries the donation's signed receipt: reloads and shared links keep working.
  // The single-use convert token stays in this tab's history entry, never in a shareable address.
  function onSuccess(receipt: string, convertToken?: string) {
    history.pushState({ convertToken }, '', `/d/${encodeURIComponent(slug)}/thanks?ref=${encodeURIComponent(receipt)}`);
    setRoute({ page: 'thanks', slug });
    scrollTo(0, 0);
  }

  if (loadError) {
    return (
      <main className="page center">
        <p className="alert" role="alert">{intl.formatMessage(loadError === 'not_found' ? m.notFound : m.loadError)}</p>
      </main>
    );
  }
  if (!campaign) {
    return (
      <main className="page center" aria-busy="true">
        <span className="spinner dark" aria-hidden />
        <p className="muted">{intl.formatMessage(m.loading)}</p>
      </main>
    );
  }

  const accent = accessibleAccent(campaign.form_color);
  const style = { '--accent': accent, '--accent-tint': tint(accent, 0.9), '--accent-soft': tint(accent, 0.75) } as CSSProperties;
  const endsAt = campaign.ends_at ? intl.formatDate(campaign.ends_at, { dateStyle: 'long' }) : null;
  const query = new URLSearchParams(location.search);
  const convertToken = query.get('token') ?? '';
  // A receipt stays readable; a new donation (the form, or turning one into a monthly one) is not possible.
  const closed = campaign.accepting_donations === false;

  return (
    <div className="page" style={style}>
      <header className="topbar">
        <span className="org">{campaign.organization_name}</span>
      </header>
      <main className="layout">
        <aside className="story">
          {campaign.cover_url ? (
            <img className="cover" src={campaign.cover_url} alt="" />
          ) : (
            <div className="cover placeholder" aria-hidden />
          )}
          <div className="story-text">
            <p className="eyebrow">{intl.formatMessage(m.by, { organization: campaign.organization_name })}</p>
            {route.page === 'form' ? <h1 className="title">{campaign.title}</h1> : <h2 className="title">{campaign.title}</h2>}
            {campaign.description && <p className="description">{campaign.description}</p>}
            {campaign.objective && <p className="objective">{campaign.objective}</p>}
            {endsAt && <p className="muted small">{intl.formatMessage(m.endsAt, { date: endsAt })}</p>}
          </div>
        </aside>
        <section className="panel" aria-label={intl.formatMessage(m.pageTitle, { organization: campaign.organization_name })}>
          {route.page === 'thanks' && <Thanks campaign={campaign} receiptRef={query.get('ref') ?? ''} />}
          {route.page !== 'thanks' && closed && <Closed campaign={campaign} />}
          {route.page === 'form' && !closed && <DonationForm campaign={campaign} onSuccess={onSuccess} />}
          {route.page === 'convert' && !closed && <Convert campaign={campaign} donationUuid={route.donation} token={convertToken} />}
        </section>
      </main>
      <Consent campaign={campaign} />
    </div>
  );
}
