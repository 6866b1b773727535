import { createFileRoute } from '@tanstack/react-router';
import { SignupPage } from '../features/account/SignupPage';

export const Route = createFileRoute('/signup')({ component: SignupPage });
