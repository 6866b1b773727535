import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { renderWithProviders } from '../../test/render';
import { NewPersonModal, PersonCell, PersonFields, trimPerson, usePersonForm, type PersonName } from './person';

function Form({ onValue }: { onValue: (p: PersonName & { role: string }) => void }) {
  const [person, setPerson] = useState({ first_name: '', last_name: '', email: '', role: 'operator' });
  onValue(person);
  return <PersonFields value={person} onChange={setPerson} errors={{ email: 'E-mail inválido' }} />;
}

describe('PersonFields', () => {
  it('edits the name and e-mail and keeps the rest of the value', async () => {
    let value: PersonName & { role: string } = { first_name: '', last_name: '', email: '', role: '' };
    renderWithProviders(<Form onValue={(v) => (value = v)} />);
    await userEvent.type(screen.getByRole('textbox', { name: /Nombre/ }), ' Ana ');
    await userEvent.type(screen.getByRole('textbox', { name: /Apellido/ }), 'Pérez');
    await userEvent.type(screen.getByRole('textbox', { name: /E-mail/ }), 'ana@example.org');
    expect(value).toEqual({ first_name: ' Ana ', last_name: 'Pérez', email: 'ana@example.org', role: 'operator' });
    expect(trimPerson(value)).toEqual({ first_name: 'Ana', last_name: 'Pérez', email: 'ana@example.org', role: 'operator' });
    expect(screen.getByText('E-mail inválido')).toBeInTheDocument();
  });
});

describe('PersonCell', () => {
  it('names the person by the e-mail when there is no name', () => {
    renderWithProviders(<PersonCell name="" email="ana@example.org" />);
    expect(screen.getAllByText('ana@example.org')).toHaveLength(2);
  });
});

function Invite({ send, requireNames }: { send: (p: PersonName) => Promise<unknown>; requireNames?: boolean }) {
  const form = usePersonForm({ first_name: '', last_name: '', email: '' }, send, { requireNames });
  return <NewPersonModal form={form} opened onClose={() => undefined} title="Nueva persona" subtitle="Recibirá un e-mail." confirm="Invitar" />;
}

describe('usePersonForm and NewPersonModal', () => {
  it('checks the e-mail (and, asked to, the names) before sending anything', async () => {
    const send = vi.fn(() => Promise.resolve());
    renderWithProviders(<Invite send={send} requireNames />);
    await userEvent.type(screen.getByRole('textbox', { name: /E-mail/ }), 'ana@');
    await userEvent.click(screen.getByRole('button', { name: 'Invitar' }));
    expect(await screen.findByText('El e-mail no es válido.')).toBeInTheDocument();
    expect(screen.getAllByText('Este campo es requerido')).toHaveLength(2);
    expect(send).not.toHaveBeenCalled();
  });

  it('sends the trimmed person, and shows a failure the server does not tie to a field under the e-mail', async () => {
    const send = vi.fn(() => Promise.reject(new ApiError(409, 'user.exists', 'Ya es parte del equipo')));
    renderWithProviders(<Invite send={send} />);
    await userEvent.type(screen.getByRole('textbox', { name: /E-mail/ }), ' ana@example.org ');
    await userEvent.click(screen.getByRole('button', { name: 'Invitar' }));
    expect(await screen.findByText('Ya es parte del equipo')).toBeInTheDocument();
    expect(send).toHaveBeenCalledWith({ first_name: '', last_name: '', email: 'ana@example.org' });
  });
});
