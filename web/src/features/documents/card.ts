import type { CardActions, OrgDocument } from './api';

/** Allowed document files (spec §5) and the size limit: under 52428800 bytes (50 MB). */
export const DOCUMENT_EXTENSIONS = ['png', 'jpeg', 'jpg', 'pdf', 'doc', 'docx'] as const;
export const MAX_DOCUMENT_BYTES = 52428800;
export const DOCUMENT_ACCEPT = '.png,.jpeg,.jpg,.pdf,.doc,.docx,image/png,image/jpeg,application/pdf,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export type FileProblem = 'document.invalid_file_type' | 'document.invalid_file_size';

/** An upload's name and size checked against the allowed extensions and a size limit (exclusive). */
export function checkFile(file: { name: string; size: number }, extensions: readonly string[], maxBytes: number): 'type' | 'size' | undefined {
  const ext = file.name.toLowerCase().split('.').pop() ?? '';
  if (!file.name.includes('.') || !extensions.includes(ext)) return 'type';
  if (file.size <= 0 || file.size >= maxBytes) return 'size';
  return undefined;
}

/** The browser's own check before uploading; the server checks the content again. */
export function checkDocumentFile(file: { name: string; size: number }): FileProblem | undefined {
  const problem = checkFile(file, DOCUMENT_EXTENSIONS, MAX_DOCUMENT_BYTES);
  return problem && `document.invalid_file_${problem}`;
}

export type Banner = '' | 'in_verification' | 'approved' | 'rejected';

/** §4 card rules: which banner and which buttons a document's card shows. */
export function cardState(doc: Pick<OrgDocument, 'status' | 'attachments'>): { banner: Banner; actions: CardActions } {
  const live = doc.attachments.filter((a) => a.status !== 'rejected').length;
  const locked = doc.status === 'ready_for_review' || doc.status === 'approved';
  const banner: Banner =
    doc.status === 'ready_for_review' ? 'in_verification' : doc.status === 'approved' ? 'approved' : doc.status === 'rejected' && live === 0 ? 'rejected' : '';
  const actions: CardActions = { upload: false, upload_more: false, upload_again: false, request_review: false, delete_attachment: false };
  if (!locked) {
    if (live > 0) {
      actions.request_review = true;
      actions.upload_more = true;
    } else if (doc.status === 'rejected') actions.upload_again = true;
    else actions.upload = true;
  }
  actions.delete_attachment = !locked && doc.attachments.length > 0;
  return { banner, actions };
}

/** The server's card state when it sends one (it also knows the per-type file limit), else ours. */
export function resolvedCard(doc: OrgDocument) {
  const local = cardState(doc);
  return { banner: doc.banner ?? local.banner, actions: doc.actions ?? local.actions };
}

export function allReadyForReview(docs: Pick<OrgDocument, 'status'>[]) {
  return docs.length > 0 && docs.every((d) => d.status === 'ready_for_review');
}
