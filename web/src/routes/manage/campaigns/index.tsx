import { createFileRoute } from '@tanstack/react-router';
import { CampaignListPage } from '../../../features/campaigns/CampaignListPage';

export const Route = createFileRoute('/manage/campaigns/')({ component: CampaignListPage });
