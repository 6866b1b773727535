import { createFileRoute } from '@tanstack/react-router';
import { campaignsQuery } from '../../../features/campaigns/api';
import { CampaignListPage } from '../../../features/campaigns/CampaignListPage';

export const Route = createFileRoute('/manage/campaigns/')({
  loader: ({ context }) => context.queryClient.ensureQueryData(campaignsQuery()),
  component: CampaignListPage,
});
