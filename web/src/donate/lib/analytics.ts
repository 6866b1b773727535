/** The campaign's tracking ids (pixel, Google Analytics, Google Tag Manager), loaded only with the donor's consent. */
export interface AnalyticsIds { pixel_id?: string; analytics_id?: string; tag_manager_id?: string }

export type Consent = 'granted' | 'denied';

const KEY = 'aporta_analytics_consent';

// Only well-formed ids are loaded, so a campaign's setting can never point a script at another place.
const GA = /^(G-[A-Z0-9]{4,20}|UA-\d{4,10}-\d{1,4})$/;
const GTM = /^GTM-[A-Z0-9]{4,12}$/;
const PIXEL = /^\d{5,20}$/;

/** The ids of a campaign that would load something. */
export function trackers(a?: AnalyticsIds | null): AnalyticsIds {
  return {
    analytics_id: a?.analytics_id && GA.test(a.analytics_id.trim()) ? a.analytics_id.trim() : undefined,
    tag_manager_id: a?.tag_manager_id && GTM.test(a.tag_manager_id.trim()) ? a.tag_manager_id.trim() : undefined,
    pixel_id: a?.pixel_id && PIXEL.test(a.pixel_id.trim()) ? a.pixel_id.trim() : undefined,
  };
}

export const hasTrackers = (a?: AnalyticsIds | null) => Object.values(trackers(a)).some(Boolean);

/** The donor's choice on this browser, if any (the same for every form: it is about the browser). */
export function storedConsent(): Consent | null {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'granted' || v === 'denied' ? v : null;
  } catch {
    return null;
  }
}

export function storeConsent(c: Consent) {
  try {
    localStorage.setItem(KEY, c);
  } catch {
    /* private mode: the choice lasts this page */
  }
}

type Queue = { (...args: unknown[]): void; queue?: unknown[][]; callMethod?: (...a: unknown[]) => void; loaded?: boolean; version?: string; push?: unknown };

/**
 * Loads the trackers after consent. Their bootstrap (dataLayer, gtag, fbq) is set up here rather than
 * by inline scripts, which the page's Content-Security-Policy does not allow; the scripts themselves
 * come from the origins the donation page's policy lists.
 */
export function loadTrackers(ids: AnalyticsIds, doc: Document = document) {
  const w = window as unknown as { dataLayer?: unknown[]; gtag?: (...a: unknown[]) => void; fbq?: Queue; _fbq?: Queue };
  const t = trackers(ids);
  const script = (src: string) => {
    if (doc.querySelector(`script[src="${src}"]`)) return;
    const s = doc.createElement('script');
    s.async = true;
    s.src = src;
    doc.head.appendChild(s);
  };
  if (t.analytics_id) {
    w.dataLayer = w.dataLayer ?? [];
    // gtag.js reads its commands as the arguments objects it pushes.
    w.gtag = function gtag() {
      // eslint-disable-next-line prefer-rest-params
      w.dataLayer!.push(arguments);
    };
    w.gtag('js', new Date());
    w.gtag('config', t.analytics_id);
    script(`https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(t.analytics_id)}`);
  }
  if (t.tag_manager_id) {
    w.dataLayer = w.dataLayer ?? [];
    w.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
    script(`https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(t.tag_manager_id)}`);
  }
  if (t.pixel_id) {
    if (!w.fbq) {
      const fbq: Queue = (...args: unknown[]) => (fbq.callMethod ? fbq.callMethod(...args) : fbq.queue!.push(args));
      fbq.queue = [];
      fbq.loaded = true;
      fbq.version = '2.0';
      fbq.push = fbq;
      w.fbq = w._fbq = fbq;
    }
    script('https://connect.facebook.net/en_US/fbevents.js');
    w.fbq('init', t.pixel_id);
    w.fbq('track', 'PageView');
  }
}
