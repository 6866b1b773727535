import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { Button, StatusBadge, TextLink } from './variants';

describe('Button', () => {
  it.each([
    ['primary', 'filled'],
    ['primary-v2', 'gradient'],
    ['secondary', 'light'],
    ['destructive', 'filled'],
    ['outline', 'outline'],
    ['ghost', 'subtle'],
  ] as const)('maps %s onto the Mantine %s variant', (variant, mantine) => {
    renderWithProviders(<Button variant={variant}>Guardar</Button>);
    const button = screen.getByRole('button', { name: 'Guardar' });
    expect(button).toHaveAttribute('data-variant', mantine);
    expect(button).toHaveAttribute('data-kind', variant);
  });

  it('renders the icon size as a square icon button and forwards clicks', async () => {
    const onClick = vi.fn();
    renderWithProviders(
      <Button size="icon" aria-label="Editar" onClick={onClick}>
        ✎
      </Button>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Editar' }));
    expect(onClick).toHaveBeenCalledOnce();
    expect(screen.getByRole('button')).toHaveClass('mantine-ActionIcon-root');
  });

  it('does not fire while disabled', async () => {
    const onClick = vi.fn();
    renderWithProviders(
      <Button disabled onClick={onClick}>
        Guardar
      </Button>,
    );
    await userEvent.click(screen.getByRole('button'));
    expect(onClick).not.toHaveBeenCalled();
  });
});

describe('TextLink and StatusBadge', () => {
  it('tag the variant they render', () => {
    renderWithProviders(
      <>
        <TextLink variant="neutral" href="/x">
          Ver
        </TextLink>
        <StatusBadge color="purple">Nuevo</StatusBadge>
      </>,
    );
    expect(screen.getByRole('link', { name: 'Ver' })).toHaveAttribute('data-kind', 'neutral');
    expect(screen.getByText('Nuevo').closest('[data-kind]')).toHaveAttribute('data-kind', 'purple');
  });
});
