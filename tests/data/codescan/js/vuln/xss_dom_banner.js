// show a one-off message passed in the URL, e.g. /dashboard?msg=Saved
const params = new URLSearchParams(window.location.search);
const message = params.get('msg');
if (message) {
  document.getElementById('banner').innerHTML = `<div class="alert alert-info">${message}</div>`;
}
