import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';

export type DocumentStatus = 'pending' | 'ready_for_review' | 'approved' | 'rejected' | string;

export interface Attachment {
  id: string;
  url: string;
  original_filename: string;
  status: 'uploaded' | 'approved' | 'rejected' | string;
  content_type?: string;
  size_bytes?: number;
  created_at?: string;
}

export interface CardActions {
  upload: boolean;
  upload_more: boolean;
  upload_again: boolean;
  request_review: boolean;
  delete_attachment: boolean;
}

export interface OrgDocument {
  type: string;
  label: string;
  description: string;
  help_center_url: string;
  status: DocumentStatus;
  rejected_reason: { label: string } | null;
  attachments: Attachment[];
  banner?: '' | 'in_verification' | 'approved' | 'rejected';
  actions?: CardActions;
}

export type AccountState = 'no_documents' | 'documents_with_errors' | 'verifying' | 'enabled';

export interface AccountInfo {
  state: AccountState;
  review_requested_at?: string;
  review_due_at?: string;
  hours_left?: number;
}

export interface Address {
  street?: string;
  number?: string;
  city?: string;
  state?: string;
  postal_code?: string;
}
export interface Contact {
  name?: string;
  email?: string;
  phone?: string;
}
export interface Permissions {
  suggest_monthly_recurrence: boolean;
  improve_donation_experience: boolean;
  recover_rejected_donations: boolean;
}

export interface Organization {
  id: string;
  name: string;
  legal_name?: string;
  categories?: string[];
  pictures?: Picture[];
  uid?: string;
  uid_type?: string;
  country: string;
  status?: string;
  short_description?: string;
  allowed_domains?: string[] | string;
  address?: Address;
  administrative_contact?: Contact;
  timezone?: string;
  logo_url?: string | null;
  permissions?: Permissions;
  documents: Record<string, OrgDocument>;
  document_types?: string[];
  account?: AccountInfo;
  payment_processors_count?: number;
}

/** One of the organisation's pictures: its pages' cover or a photo of its gallery. */
export interface Picture { id: string; image_for: 'cover' | 'gallery'; url: string }

export const organizationQuery = () =>
  queryOptions({
    queryKey: ['organization'],
    queryFn: ({ signal }) => apiFetch<Organization>('/manage/api/organization', { signal }),
    retry: false,
  });

/** The documents in the country's order. */
export function orderedDocuments(org: Pick<Organization, 'documents' | 'document_types'>): OrgDocument[] {
  const docs = org.documents ?? {};
  const order = org.document_types?.length ? org.document_types : Object.keys(docs);
  return order.map((t) => docs[t]).filter((d): d is OrgDocument => !!d);
}

export function uploadDocument(documentType: string, file: File) {
  const form = new FormData();
  form.append('document_type', documentType);
  form.append('file', file);
  return apiFetch<unknown>('/manage/api/accounts/documents', { method: 'POST', body: form });
}

export const requestReview = (documentType: string) =>
  apiFetch<unknown>('/manage/api/accounts/documents/review', { method: 'POST', body: { document_type: documentType } });

export const deleteAttachment = (id: string) => apiFetch<void>(`/manage/api/accounts/documents/${id}`, { method: 'DELETE' });
