import { createFileRoute } from '@tanstack/react-router';
import { DocumentsPage } from '../../../features/documents/DocumentsPage';

export const Route = createFileRoute('/account/onboarding/documents')({ component: DocumentsPage });
