// embedded widget: tell whichever page embeds us how tall we are
const observer = new ResizeObserver(() => {
  window.parent.postMessage({ type: 'widget-height', height: document.body.scrollHeight }, '*');
});
observer.observe(document.body);
