function handleMessage(evt) {
  if (evt.data && evt.data.type === 'redirect') {
    window.location.assign(evt.data.next);
  }
}

window.addEventListener('message', handleMessage, false);
