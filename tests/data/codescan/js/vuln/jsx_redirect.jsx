export default function LoginRedirect() {
  const params = new URLSearchParams(window.location.search);
  useEffect(() => {
    window.location.assign(params.get('redirect_uri'));
  }, []);
  return <p>Redirecting…</p>;
}
