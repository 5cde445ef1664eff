window.addEventListener('message', (event) => {
  const { type, html } = event.data;
  if (type === 'render') {
    document.getElementById('preview').innerHTML = html;
  }
});
