window.onmessage = function (e) {
  if (e.data.action === 'setToken') {
    localStorage.setItem('authToken', e.data.token);
  }
};
