import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import type { PublicCampaign } from './api';
import { hasTrackers, loadTrackers, storedConsent, storeConsent, type Consent as Choice } from './lib/analytics';
import { m } from './messages';

// Each country's personal-data law, named in the banner. Every one of them asks for the person's
// consent before data is collected for purposes other than the donation (AR Ley 25.326, BR LGPD, CL
// Ley 19.628, CO Ley 1581, MX LFPDPPP, PE Ley 29.733, UY Ley 18.331), so nothing loads before "Accept".
const LAWS: Record<string, keyof typeof m> = {
  AR: 'consentLawAR', BR: 'consentLawBR', CL: 'consentLawCL', CO: 'consentLawCO', MX: 'consentLawMX', PE: 'consentLawPE', UY: 'consentLawUY',
};

/** The analytics consent banner of the public form: shown when the campaign has tracking ids and the browser has not chosen yet. */
export function Consent({ campaign }: { campaign: PublicCampaign }) {
  const intl = useIntl();
  const [choice, setChoice] = useState<Choice | null>(() => storedConsent());
  const ids = campaign.analytics;

  useEffect(() => {
    if (choice === 'granted' && ids) loadTrackers(ids);
  }, [choice, ids]);

  if (!hasTrackers(ids) || choice !== null) return null;
  const law = LAWS[campaign.country];
  const decide = (c: Choice) => {
    storeConsent(c);
    setChoice(c);
  };
  return (
    <div className="consent" role="region" aria-label={intl.formatMessage(m.consentTitle)}>
      <p>
        <strong>{intl.formatMessage(m.consentTitle)}</strong>{' '}
        {intl.formatMessage(m.consentBody, { organization: campaign.organization_name })}
        {law && <> {intl.formatMessage(m[law])}</>}
      </p>
      <div className="consent-actions">
        <button type="button" className="consent-button" onClick={() => decide('denied')}>{intl.formatMessage(m.consentReject)}</button>
        <button type="button" className="consent-button accept" onClick={() => decide('granted')}>{intl.formatMessage(m.consentAccept)}</button>
      </div>
    </div>
  );
}
