import { createFileRoute } from '@tanstack/react-router';
import { LogoutPage } from '../../features/account/AuthPages';

export const Route = createFileRoute('/account/logout')({ component: LogoutPage });
