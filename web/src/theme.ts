import { createTheme, type MantineColorsTuple } from '@mantine/core';

// Deep teal: shade 7 (#0f766e) on white is 5.5:1, so filled buttons and links pass WCAG AA.
const brand: MantineColorsTuple = [
  '#e6fbf8', '#ccf5ef', '#9aeadf', '#63dfcd', '#35d3bd', '#14b8a6', '#0d9488', '#0f766e', '#115e59', '#134e4a',
];

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: { light: 7, dark: 5 },
  colors: { brand },
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif', fontWeight: '700' },
  defaultRadius: 'md',
  focusRing: 'auto',
  cursorType: 'pointer',
});
