import { createFileRoute } from '@tanstack/react-router';
import { ChooseTypePage } from '../../../features/campaigns/ChooseTypePage';

export const Route = createFileRoute('/manage/campaigns/choose_type')({ component: ChooseTypePage });
