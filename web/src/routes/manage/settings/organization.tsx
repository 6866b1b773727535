import { createFileRoute } from '@tanstack/react-router';
import { OrganizationPage } from '../../../features/organizations/OrganizationPage';

export const Route = createFileRoute('/manage/settings/organization')({ component: OrganizationPage });
