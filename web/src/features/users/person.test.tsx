import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { PersonCell, PersonFields, trimPerson, type PersonName } from './person';

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
