const params = new URLSearchParams(window.location.search);
const term = params.get('q') || '';
const box = document.querySelector('#results-title');
box.innerHTML = 'Results for <b>' + term + '</b>';
