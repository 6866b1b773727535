import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { apiFetch } from '../../api/client';
import { DownloadByEmailDialog } from '../../components/DownloadByEmailDialog';
import { Button } from '../../components/variants';

export const exportLeads = (email: string) => apiFetch<{ status: string; email: string }>('/manage/api/leads/export', { method: 'POST', body: { email } });

/** Leads (people who did not finish a form in the last 90 days): the download link goes by e-mail (§2 screen 8). */
export function LeadsDownload({ email }: { email: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <FormattedMessage id="leads.button" defaultMessage="Descargar leads" />
      </Button>
      <DownloadByEmailDialog
        opened={open}
        onClose={() => setOpen(false)}
        title={<FormattedMessage id="leads.title" defaultMessage="Descargar potenciales donantes" />}
        description={
          <FormattedMessage
            id="leads.description"
            defaultMessage="Te enviaremos a {email} un enlace para descargar las personas que no terminaron un formulario en los últimos 90 días. Puede tardar unas horas y el enlace vale 24 horas."
            values={{ email: <strong>{email}</strong> }}
          />
        }
        onConfirm={async () => {
          await exportLeads(email);
        }}
      />
    </>
  );
}
