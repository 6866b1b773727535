import { MantineProvider } from '@mantine/core';
import { render, type RenderOptions } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import es from '../../lang/es.json';
import { AppIntlProvider } from '../i18n/AppIntlProvider';
import { theme } from '../theme';

/** Renders inside the same providers as the app, with the Spanish catalogue. */
export function renderWithProviders(ui: ReactElement, options?: RenderOptions) {
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <MantineProvider theme={theme} env="test">
      <AppIntlProvider locale="es" messages={es}>
        {children}
      </AppIntlProvider>
    </MantineProvider>
  );
  return render(ui, { wrapper: Wrapper, ...options });
}
