import { createFileRoute } from '@tanstack/react-router';
import { campaignQuery } from '../../../features/campaigns/api';
import { EditorPage } from '../../../features/campaigns/EditorPage';

export const Route = createFileRoute('/manage/campaigns/$uuid')({
  loader: ({ context, params }) => context.queryClient.ensureQueryData(campaignQuery(params.uuid)),
  component: function CampaignEditorRoute() {
    const { uuid } = Route.useParams();
    return <EditorPage uuid={uuid} />;
  },
});
