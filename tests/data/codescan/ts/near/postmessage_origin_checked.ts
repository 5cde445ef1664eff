const PAY_ORIGIN = 'https://pay.example.com';

window.addEventListener('message', (event: MessageEvent) => {
  if (event.origin !== PAY_ORIGIN) return;
  if (event.data?.type === 'payment_complete') {
    showReceipt(String(event.data.paymentId));
  }
});
