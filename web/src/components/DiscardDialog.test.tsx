import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { defaultReason, DiscardDialog } from './DiscardDialog';

const localisedDefault = 'El donante pidió dejar de donar';

describe('defaultReason', () => {
  it('prefers the localised default when it is offered, else the first reason', () => {
    expect(defaultReason(['Fraude', localisedDefault], localisedDefault)).toBe(localisedDefault);
    expect(defaultReason(['Fraude', 'Duplicada'], localisedDefault)).toBe('Fraude');
    expect(defaultReason([], localisedDefault)).toBeUndefined();
  });
});

describe('DiscardDialog', () => {
  it('warns it is irreversible and sends the chosen reason', async () => {
    const onConfirm = vi.fn(() => Promise.resolve());
    const onClose = vi.fn();
    renderWithProviders(<DiscardDialog opened onClose={onClose} reasons={['Fraude', localisedDefault]} onConfirm={onConfirm} />);
    expect(screen.getByText(/irreversible/)).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: localisedDefault })).toBeChecked();

    await userEvent.click(screen.getByRole('radio', { name: 'Fraude' }));
    await userEvent.click(screen.getByRole('button', { name: 'Descartar' }));
    expect(onConfirm).toHaveBeenCalledWith('Fraude');
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('cannot be closed while submitting', async () => {
    const onClose = vi.fn();
    renderWithProviders(<DiscardDialog opened onClose={onClose} reasons={['Fraude']} onConfirm={() => new Promise(() => {})} />);
    await userEvent.click(screen.getByRole('button', { name: 'Descartar' }));
    expect(screen.getByRole('button', { name: 'Cancelar' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cerrar' })).toBeDisabled();
    await userEvent.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('stays open with an error when the discard fails', async () => {
    const onClose = vi.fn();
    renderWithProviders(<DiscardDialog opened onClose={onClose} reasons={['Fraude']} onConfirm={() => Promise.reject(new Error('x'))} />);
    await userEvent.click(screen.getByRole('button', { name: 'Descartar' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No se pudo descartar');
    expect(onClose).not.toHaveBeenCalled();
  });
});
