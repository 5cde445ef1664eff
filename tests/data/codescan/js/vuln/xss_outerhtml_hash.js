window.addEventListener('hashchange', () => {
  const tab = decodeURIComponent(location.hash.slice(1));
  document.getElementById('tab-label').outerHTML = `<span id="tab-label">${tab}</span>`;
});
