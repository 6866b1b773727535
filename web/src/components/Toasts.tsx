import { Notifications, notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';

const TOAST_AUTO_CLOSE_MS = 7000;

export type ToastType = 'success' | 'fail';

/** Mount once near the root; toasts stack at the top right. */
export function ToastStack() {
  return <Notifications position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} limit={5} />;
}

export function showToast({ type, message, title }: { type: ToastType; message: ReactNode; title?: ReactNode }) {
  return notifications.show({
    color: type === 'success' ? 'green' : 'red',
    title,
    message,
    withCloseButton: true,
    autoClose: TOAST_AUTO_CLOSE_MS,
  });
}
