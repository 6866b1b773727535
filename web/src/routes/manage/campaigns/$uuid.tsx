import { createFileRoute } from '@tanstack/react-router';
import { EditorPage } from '../../../features/campaigns/EditorPage';

export const Route = createFileRoute('/manage/campaigns/$uuid')({
  component: function CampaignEditorRoute() {
    const { uuid } = Route.useParams();
    return <EditorPage uuid={uuid} />;
  },
});
