/** The onboarding step bar (spec §2, §4): verification, gateway, documents — each completed, active or inactive. */
export type StepState = 'completed' | 'active' | 'inactive';
export interface OnboardingSteps {
  verification: StepState;
  gateway: StepState;
  documents: StepState;
}

export function onboardingSteps({ verified, hasGateway, documentsDone = false }: { verified: boolean; hasGateway: boolean; documentsDone?: boolean }): OnboardingSteps {
  if (!verified) return { verification: 'active', gateway: 'inactive', documents: 'inactive' };
  if (!hasGateway) return { verification: 'completed', gateway: 'active', documents: 'inactive' };
  return { verification: 'completed', gateway: 'completed', documents: documentsDone ? 'completed' : 'active' };
}

export type VerificationStage = 'email' | 'cellphone' | 'complete';

/** E-mail first, then cellphone, then complete (§4). */
export function verificationStage(v: { email_verified: boolean; cellphone_verified: boolean }): VerificationStage {
  if (!v.email_verified) return 'email';
  if (!v.cellphone_verified) return 'cellphone';
  return 'complete';
}
