import { Accordion } from '@mantine/core';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { ActiveBadge, GatewayItem } from './GatewayItem';

describe('GatewayItem', () => {
  it('shows the name and badges as the control and, opened, the description before the rest', async () => {
    const { container } = renderWithProviders(
      <Accordion>
        <GatewayItem id="mercadopago" status="active" name="Mercado Pago" badges={<ActiveBadge />} description="Cobra con tarjeta.">
          <button type="button">Eliminar</button>
        </GatewayItem>
      </Accordion>,
    );
    expect(container.querySelector('[data-gateway="mercadopago"][data-status="active"]')).not.toBeNull();
    const control = screen.getByRole('button', { name: /Mercado Pago/ });
    expect(control).toHaveTextContent('Activa');
    await userEvent.click(control);
    expect(control).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('Cobra con tarjeta.')).toBeInTheDocument();
    expect(screen.getByText('Eliminar')).toBeInTheDocument();
  });
});
