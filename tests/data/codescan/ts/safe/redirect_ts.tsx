export default function Callback() {
  const router = useRouter();
  const dest = useSearchParams().get('continue') ?? '/';
  useEffect(() => {
    // resolve it the way the browser will, and go there only if it stays on this origin
    const url = new URL(dest, window.location.origin);
    router.push(url.origin === window.location.origin ? url.href : '/');
  }, [router, dest]);
  return null;
}
