async function renderNotifications() {
  const res = await fetch('/api/notifications');
  const items = await res.json();
  const list = document.querySelector('#notifications');
  for (const n of items) {
    list.insertAdjacentHTML('beforeend', `<li class="notification">${n.message}</li>`);
  }
}
