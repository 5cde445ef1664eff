// popup: hand the fresh access token back to the page that opened the login window
const params = new URLSearchParams(window.location.hash.slice(1));
const accessToken = params.get('access_token');
window.opener.postMessage({ type: 'oauth-done', accessToken }, '*');
window.close();
