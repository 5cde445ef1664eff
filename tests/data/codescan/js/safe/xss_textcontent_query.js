const params = new URLSearchParams(window.location.search);
const term = params.get('q') || '';
document.querySelector('#results-title').textContent = 'Results for ' + term;
