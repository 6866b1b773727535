import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';

export type GuideName = 'registration_completed' | 'upload_documents' | 'payment_gateways_config';

/** The stored step of a guide; 0 (not yet seen) when it cannot be read (spec §7: failures are only logged). */
export const tourQuery = (name: GuideName) =>
  queryOptions({
    queryKey: ['tour', name],
    queryFn: async ({ signal }) => {
      try {
        const res = await apiFetch<{ step?: number }>(`/manage/api/tours/${name}`, { signal });
        return res?.step ?? 0;
      } catch (error) {
        console.warn(`guide ${name}`, error);
        return 0;
      }
    },
    staleTime: Infinity,
  });

export const saveTourProgress = (name: GuideName, step: number) =>
  apiFetch<unknown>(`/manage/api/tours/${name}/progress`, { method: 'PUT', body: { step } }).catch((error: unknown) => {
    console.warn(`guide ${name}`, error);
  });
