export default function Callback() {
  const router = useRouter();
  const dest = useSearchParams().get('continue') ?? '/';
  useEffect(() => {
    router.push(dest.startsWith('/') && !dest.startsWith('//') ? dest : '/');
  }, [router, dest]);
  return null;
}
