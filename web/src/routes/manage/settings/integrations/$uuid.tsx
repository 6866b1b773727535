import { createFileRoute } from '@tanstack/react-router';
import { setupQuery } from '../../../../features/integrations/api';
import { SetupPage } from '../../../../features/integrations/SetupPage';

export const Route = createFileRoute('/manage/settings/integrations/$uuid')({
  loader: ({ context, params }) => context.queryClient.ensureQueryData(setupQuery(params.uuid)),
  component: function SetupRoute() {
    const { uuid } = Route.useParams();
    return <SetupPage uuid={uuid} />;
  },
});
