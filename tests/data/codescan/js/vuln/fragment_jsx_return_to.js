export default function LoginSuccess() {
  const params = new URLSearchParams(useLocation().search);
  useEffect(() => {
    window.location.href = params.get('returnTo') || '/';
  }, []);
  return <p>Signing you in…</p>;
}
