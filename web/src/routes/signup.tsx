import { createFileRoute } from '@tanstack/react-router';
import { SignupPage } from '../features/accounts/SignupPage';

export const Route = createFileRoute('/signup')({ component: SignupPage });
