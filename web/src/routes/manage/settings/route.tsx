import { createFileRoute } from '@tanstack/react-router';
import { SettingsLayout } from '../../../features/shell/SettingsNav';

export const Route = createFileRoute('/manage/settings')({ component: SettingsLayout });
