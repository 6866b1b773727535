// The dashboard moved to features/dashboard (issue 6); this keeps the old import path working.
export { DashboardPage } from '../dashboard/DashboardPage';
