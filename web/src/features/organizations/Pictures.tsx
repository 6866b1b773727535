import { ActionIcon, FileButton, Group, Image, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ApiError, apiFetch } from '../../api/client';
import { Button } from '../../components/variants';
import type { Organization, Picture } from '../documents/api';
import { checkLogo } from './rules';

export const MAX_GALLERY = 12;

/** The organisation's cover and gallery (organisation-and-account §7: POST/DELETE /manage/organization/pictures). */
export function Pictures({ org, track, store }: { org: Organization; track: <T>(fn: () => Promise<T>) => Promise<T | undefined>; store: (next: unknown) => unknown }) {
  const intl = useIntl();
  const [error, setError] = useState<string>();
  const pictures = org.pictures ?? [];
  const cover = pictures.find((p) => p.image_for === 'cover');
  const gallery = pictures.filter((p) => p.image_for === 'gallery');

  const upload = async (imageFor: Picture['image_for'], file: File | null) => {
    if (!file) return;
    if (checkLogo(file)) {
      setError(intl.formatMessage({ id: 'org.pictureInvalid', defaultMessage: 'La imagen debe ser JPG, PNG o GIF de menos de 5 MB.' }));
      return;
    }
    setError(undefined);
    const form = new FormData();
    form.append('image_for', imageFor);
    form.append('picture[image]', file);
    const res = await track(() => apiFetch<unknown>('/manage/organization/pictures', { method: 'POST', body: form }).catch((e) => {
      if (e instanceof ApiError) setError(Object.values(e.fields ?? {})[0] ?? e.message);
      throw e;
    }));
    if (res !== undefined) await store(res);
  };
  const remove = async (p: Picture) => {
    const res = await track(() => apiFetch<unknown>(`/manage/organization/pictures/${p.id}`, { method: 'DELETE' }));
    if (res !== undefined) await store(res);
  };

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="org-pictures">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="org-pictures"><FormattedMessage id="org.pictures" defaultMessage="Imágenes" /></Title>
          <Text size="sm" c="dimmed"><FormattedMessage id="org.picturesHint" defaultMessage="Una portada para tus páginas y hasta 12 fotos de tu trabajo. JPG, PNG o GIF de menos de 5 MB." /></Text>
        </div>
        <Group align="flex-start" gap="md">
          {cover ? (
            <Image src={cover.url} w={240} h={120} fit="cover" radius="md" alt={intl.formatMessage({ id: 'org.coverAlt', defaultMessage: 'Portada de {name}' }, { name: org.name })} />
          ) : (
            <Text size="sm" c="dimmed" w={240}><FormattedMessage id="org.noCover" defaultMessage="Todavía no hay portada." /></Text>
          )}
          <FileButton onChange={(f) => upload('cover', f)} accept="image/png,image/jpeg,image/gif">
            {(props) => <Button variant="outline" {...props}><FormattedMessage id="org.uploadCover" defaultMessage="Subir portada" /></Button>}
          </FileButton>
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" data-testid="org-gallery">
          {gallery.map((p, i) => (
            <div key={p.id} style={{ position: 'relative' }}>
              <Image src={p.url} h={110} fit="cover" radius="md" alt={intl.formatMessage({ id: 'org.galleryAlt', defaultMessage: 'Foto {n} de la galería' }, { n: i + 1 })} />
              <ActionIcon variant="filled" color="red" size="md" style={{ position: 'absolute', top: 6, right: 6 }} onClick={() => remove(p)}
                aria-label={intl.formatMessage({ id: 'org.removePicture', defaultMessage: 'Eliminar la foto {n}' }, { n: i + 1 })}>×</ActionIcon>
            </div>
          ))}
        </SimpleGrid>
        {gallery.length < MAX_GALLERY && (
          <FileButton onChange={(f) => upload('gallery', f)} accept="image/png,image/jpeg,image/gif">
            {(props) => <Group><Button variant="secondary" {...props}><FormattedMessage id="org.addPicture" defaultMessage="Agregar foto" /></Button></Group>}
          </FileButton>
        )}
        {error && <Text role="alert" c="red.8" size="sm">{error}</Text>}
      </Stack>
    </Paper>
  );
}
