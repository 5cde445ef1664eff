window.addEventListener('message', (event) => {
  if (event.origin !== 'https://app.example.com') return;
  const { type, text } = event.data;
  if (type === 'render') {
    document.getElementById('preview').textContent = text;
  }
});
