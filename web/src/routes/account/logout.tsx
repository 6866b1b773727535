import { createFileRoute } from '@tanstack/react-router';
import { LogoutPage } from '../../features/accounts/AuthPages';

export const Route = createFileRoute('/account/logout')({ component: LogoutPage });
