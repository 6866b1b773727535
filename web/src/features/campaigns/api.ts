import { queryOptions } from '@tanstack/react-query';
import { apiFetch, ApiError } from '../../api/client';
import type { Money } from '../../donate/lib/money';

export const CAMPAIGN_TYPES = ['crowdfund', 'custom', 'fundraise', 'promoted', 'tickets'] as const;
export type CampaignType = (typeof CAMPAIGN_TYPES)[number];
export const FIELD_TYPES = [
  'address_bundle', 'alt_email', 'birthday', 'cellphone', 'cellphone_bundle', 'checkbox', 'gender', 'occupation', 'phone',
  'phone_bundle', 'select_options', 'textarea', 'textfield',
] as const;
export const INSTALMENTS = [0, 3, 6, 9, 12] as const;
export const UPGRADE_PERIODS = [1, 2, 3, 4, 6, 12] as const;

/** A preset amount as a create or PATCH sends it: a decimal string in the campaign's currency. */
export interface CampaignAmount { amount: string; label: string }
/** A preset amount as the API answers it. */
export interface Preset { amount: Money; label: string }
export interface FormField {
  type: string; title: string; label: string; width: 'full' | 'half'; required: boolean; hide_on_mobile: boolean;
  value_related_to: string; options?: string[]; order?: number;
}
export interface Ticket { name: string; quantity: number | null }
export interface CampaignEvent {
  category: string; format: '' | 'online' | 'physical'; starts_at: string | null; ends_at: string | null;
  ticket_sales_end: string | null; tickets: Ticket[];
}
export interface Campaign {
  uuid: string;
  slug: string;
  title: string;
  description: string;
  objective: string;
  type: CampaignType;
  channel: string;
  amounts: Preset[];
  allow_one_time: boolean;
  allow_other_amount: boolean;
  min_other_amount: Money | null;
  instalments: number;
  form_color: string;
  ends_at: string | null;
  periodic_increase: { enabled: boolean; percentage: number | null; period_months: number | null; min_percentage: number | null; max_percentage: number | null };
  analytics: { pixel_id: string; analytics_id: string; tag_manager_id: string };
  thanks: { instant: string; email_subject: string; email: string };
  immediate_charge: boolean;
  event: CampaignEvent | null;
  form_fields: FormField[];
  currency: string;
  country: string;
  published: boolean;
  published_at: string | null;
  cover_url: string;
  public_path: string;
  created_at: string;
  updated_at: string;
}
export interface QrCode { base64_svg: string; base64_png: string; filename: string; url?: string }

export const campaignsQuery = () =>
  queryOptions({
    queryKey: ['campaigns'],
    queryFn: async ({ signal }) => {
      const res = await apiFetch<{ campaigns: Campaign[]; total: number }>('/manage/api/campaigns?per_page=100', { signal });
      return res.campaigns ?? [];
    },
    retry: false,
  });

export const campaignQuery = (uuid: string) =>
  queryOptions({
    queryKey: ['campaigns', uuid],
    queryFn: ({ signal }) => apiFetch<Campaign>(`/manage/api/campaigns/${uuid}`, { signal }),
    retry: false,
  });

/** What a create or PATCH sends: amounts as decimal strings. */
export type CampaignInput = Partial<Omit<Campaign, 'amounts' | 'min_other_amount'>> & { amounts?: CampaignAmount[]; min_other_amount?: string | null };
/** The editor's copy of a campaign: its amounts as the decimal strings the inputs edit. */
export type CampaignDraft = Omit<Campaign, 'amounts' | 'min_other_amount'> & { amounts: CampaignAmount[]; min_other_amount: string | null };
export const toDraft = (c: Campaign): CampaignDraft => ({
  ...c,
  amounts: c.amounts.map((a) => ({ amount: a.amount.decimal, label: a.label })),
  min_other_amount: c.min_other_amount?.decimal ?? null,
});

export const createCampaign = (body: CampaignInput) => apiFetch<Campaign>('/manage/api/campaigns', { method: 'POST', body });
export const patchCampaign = (uuid: string, body: CampaignInput) =>
  apiFetch<Campaign>(`/manage/api/campaigns/${uuid}`, { method: 'PATCH', body });
export const putFormFields = (uuid: string, form_fields: FormField[]) =>
  apiFetch<Campaign>(`/manage/api/campaigns/${uuid}/form_fields`, { method: 'PUT', body: { form_fields } });
export const setPublished = (uuid: string, publish: boolean) =>
  apiFetch<Campaign>(`/manage/api/campaigns/${uuid}/${publish ? 'publish' : 'unpublish'}`, { method: 'POST' });
export const fetchQr = (uuid: string, signal?: AbortSignal) => apiFetch<QrCode>(`/manage/api/campaigns/${uuid}/qr`, { signal });

/** Cover upload: multipart, with the page's CSRF token. */
export async function uploadCover(uuid: string, file: File): Promise<Campaign> {
  const form = new FormData();
  form.append('cover', file);
  const headers = new Headers({ Accept: 'application/json' });
  const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content;
  if (token) headers.set('X-CSRF-Token', token);
  const res = await fetch(`/manage/api/campaigns/${uuid}/cover`, { method: 'POST', body: form, headers, credentials: 'same-origin' });
  const body = (await res.json().catch(() => undefined)) as { error?: { code: string; message: string } } | Campaign | undefined;
  if (!res.ok) {
    const err = (body as { error?: { code: string; message: string } })?.error;
    throw new ApiError(res.status, err?.code ?? `http_${res.status}`, err?.message ?? res.statusText, body);
  }
  return body as Campaign;
}

export const COVER_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'image/gif'];
export const COVER_MAX_BYTES = 5 * 1024 * 1024;
export const HEX_COLOR = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** The image rule of §5: jpeg, jpg, png or gif, under 5 MB. */
export function checkCover(file: File): 'type' | 'size' | null {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!COVER_TYPES.includes(file.type) && !['jpeg', 'jpg', 'png', 'gif'].includes(ext)) return 'type';
  if (file.size >= COVER_MAX_BYTES) return 'size';
  return null;
}

export type ShareNetwork = 'facebook' | 'twitter' | 'whatsapp';
export const SHARE_POPUP = { width: 626, height: 436 };

/** The share URL for a network; any other network throws (§8). */
export function shareUrl(network: string, url: string, text = ''): string {
  const u = encodeURIComponent(url);
  switch (network) {
    case 'facebook':
      return `https://www.facebook.com/sharer/sharer.php?u=${u}`;
    case 'twitter':
      return `https://twitter.com/intent/tweet?url=${u}&text=${encodeURIComponent(text)}`;
    case 'whatsapp':
      return `https://api.whatsapp.com/send?text=${encodeURIComponent(text ? `${text} ${url}` : url)}`;
    default:
      throw new Error(`share: unsupported network ${network}`);
  }
}

export function openSharePopup(network: string, url: string, text = '') {
  const href = shareUrl(network, url, text);
  const { width, height } = SHARE_POPUP;
  const left = Math.max(0, (window.screen.width - width) / 2);
  const top = Math.max(0, (window.screen.height - height) / 2);
  window.open(href, `share-${network}`, `width=${width},height=${height},left=${left},top=${top},noopener`);
}

export const publicUrl = (c: Pick<Campaign, 'public_path' | 'slug'>) => `${window.location.origin}${c.public_path || `/d/${c.slug}`}`;
