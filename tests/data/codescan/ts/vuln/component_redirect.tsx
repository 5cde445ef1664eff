export default function Callback() {
  const router = useRouter();
  const searchParams = useSearchParams();
  useEffect(() => {
    const dest = searchParams.get('continue');
    if (dest) router.push(dest);
  }, [router, searchParams]);
  return null;
}
