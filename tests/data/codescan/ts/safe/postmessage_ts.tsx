export function PaymentFrame({ onPaid }: { onPaid: (id: string) => void }) {
  useEffect(() => {
    const listener = (e: MessageEvent) => {
      if (e.origin !== 'https://pay.example.com') return;
      if (e.data?.type === 'payment_complete') onPaid(e.data.paymentId);
    };
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  }, [onPaid]);
  return <iframe src="https://pay.example.com/checkout" title="payment" />;
}
