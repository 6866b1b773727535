import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

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
  // Who asks the system to reduce motion gets panels, modals and popovers without their slide and fade (WCAG 2.3.3).
  respectReducedMotion: true,
});

// Mantine's dimmed text (gray 6, 3.3:1 on white) and the text of its light badges and alerts (shade 6 on a 10 %
// tint, about 2.5:1) fail WCAG AA; these darker tones pass 4.5:1 on white, on the page's gray-0 and on each tint.
const lightText: Record<string, string> = {
  gray: '#3d4349', red: '#9b1c1c', pink: '#9c1d55', grape: '#7a1f8c', violet: '#5a2ea6', indigo: '#2c3a9c', blue: '#1c4f8a',
  cyan: '#0b5563', teal: '#0b5e54', green: '#1b5e20', lime: '#3f6212', yellow: '#7a4a00', orange: '#8a3c00', brand: '#134e4a',
};
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#5c636a',
    ...Object.fromEntries(Object.entries(lightText).map(([color, hex]) => [`--mantine-color-${color}-light-color`, hex])),
  },
  dark: {},
});
