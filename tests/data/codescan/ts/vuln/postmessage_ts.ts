window.addEventListener('message', (event: MessageEvent<{ cmd: string; url: string }>) => {
  if (event.data.cmd === 'navigate') {
    window.location.href = event.data.url;
  }
});
