declare module 'virtual:donate-messages/*' {
  // Strings, or their parsed syntax trees in the public form's own build (vite.config.ts).
  const messages: Record<string, string> | Record<string, import('react-intl').MessageFormatElement[]>;
  export default messages;
}
