declare module 'virtual:donate-messages/*' {
  const messages: Record<string, string>;
  export default messages;
}
