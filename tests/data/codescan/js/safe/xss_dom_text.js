const params = new URLSearchParams(window.location.search);
const message = params.get('msg');
if (message) {
  const alert = document.createElement('div');
  alert.className = 'alert alert-info';
  alert.textContent = message;
  document.getElementById('banner').replaceChildren(alert);
}
