  // generate an idempotency key / nonce for the payment
  const nonce = useMemo(() => Date.now().toString(36) + Math.random().toString(36).slice(2), []);
  return <PaymentForm nonce={nonce} amount={amount} />;
