export function SsoBridge({ onLogin }: { onLogin: (token: string) => void }) {
  useEffect(() => {
    function handle(event: MessageEvent) {
      if (!event.origin.endsWith('example.com')) return;
      if (event.data?.type === 'sso-token') onLogin(event.data.token);
    }
    window.addEventListener('message', handle);
    return () => window.removeEventListener('message', handle);
  }, [onLogin]);
  return <iframe src="https://sso.example.com/bridge" title="sso" hidden />;
}
