import { describe, expect, it } from 'vitest';
import type { Attachment } from './api';
import { allReadyForReview, cardState, checkDocumentFile } from './card';

const file = (status: Attachment['status']): Attachment => ({ id: status, url: '', original_filename: 'a.pdf', status });

describe('document card (§4)', () => {
  it('offers upload when empty, then ready-for-verification and more pages', () => {
    expect(cardState({ status: 'pending', attachments: [] })).toEqual({
      banner: '',
      actions: { upload: true, upload_more: false, upload_again: false, request_review: false, delete_attachment: false },
    });
    const withFile = cardState({ status: 'pending', attachments: [file('uploaded')] });
    expect(withFile.actions).toMatchObject({ request_review: true, upload_more: true, upload: false, delete_attachment: true });
  });

  it('locks ready_for_review (yellow) and approved (green)', () => {
    const review = cardState({ status: 'ready_for_review', attachments: [file('uploaded')] });
    expect(review.banner).toBe('in_verification');
    expect(Object.values(review.actions).every((v) => !v)).toBe(true);
    expect(cardState({ status: 'approved', attachments: [file('approved')] }).banner).toBe('approved');
  });

  it('shows red and "upload again" when rejected with no live files', () => {
    const rejected = cardState({ status: 'rejected', attachments: [file('rejected')] });
    expect(rejected.banner).toBe('rejected');
    expect(rejected.actions).toMatchObject({ upload_again: true, delete_attachment: true });
    const fixed = cardState({ status: 'rejected', attachments: [file('rejected'), file('uploaded')] });
    expect(fixed.banner).toBe('');
    expect(fixed.actions.request_review).toBe(true);
  });

  it('checks files in the browser: type by extension, size under 50 MB', () => {
    expect(checkDocumentFile({ name: 'estatuto.PDF', size: 10 })).toBeUndefined();
    expect(checkDocumentFile({ name: 'acta.docx', size: 52428799 })).toBeUndefined();
    expect(checkDocumentFile({ name: 'acta.docx', size: 52428800 })).toBe('document.invalid_file_size');
    expect(checkDocumentFile({ name: 'virus.exe', size: 10 })).toBe('document.invalid_file_type');
    expect(checkDocumentFile({ name: 'sin-extension', size: 10 })).toBe('document.invalid_file_type');
  });

  it('knows when every document is ready for review', () => {
    expect(allReadyForReview([])).toBe(false);
    expect(allReadyForReview([{ status: 'ready_for_review' }, { status: 'approved' }])).toBe(false);
    expect(allReadyForReview([{ status: 'ready_for_review' }])).toBe(true);
  });
});
