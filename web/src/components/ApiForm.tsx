import { Alert, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import type { useApiForm } from './useApiForm';
import { Button } from './variants';

/**
 * A form sent with useApiForm: the failure no input explains in an alert above the fields, then the fields, then the
 * submit button, busy while the form is sent. No browser validation: the server's messages speak the user's language.
 */
export function ApiForm({ form, submit, children }: { form: ReturnType<typeof useApiForm>; submit: ReactNode; children: ReactNode }) {
  return (
    <form onSubmit={form.onSubmit} noValidate>
      <Stack gap="md">
        {form.formError && (
          <Alert color="red" role="alert">
            {form.formError}
          </Alert>
        )}
        {children}
        <div>
          <Button type="submit" loading={form.pending}>
            {submit}
          </Button>
        </div>
      </Stack>
    </form>
  );
}
