window.addEventListener('message', (event) => {
  if (event.origin.indexOf('example.com') === -1) return;
  const { action, amount } = event.data;
  if (action === 'checkout') {
    submitOrder({ amount });
  }
});
