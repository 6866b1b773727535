declare module 'virtual:donate-messages/*' {
  // Strings, or their parsed syntax trees in the public form's own build (vite.config.ts).
  const messages: import('../i18n/messages').Catalogue;
  export default messages;
}
