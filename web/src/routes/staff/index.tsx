import { createFileRoute } from '@tanstack/react-router';
import { StaffListPage } from '../../features/staff/StaffListPage';

export const Route = createFileRoute('/staff/')({ component: StaffListPage });
