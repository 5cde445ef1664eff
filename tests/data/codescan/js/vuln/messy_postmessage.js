// listen for the token from the login popup
window.addEventListener("message", e => {
  const token = e.data.token
  api.defaults.headers.common.Authorization = `Bearer ${token}`
  loadDashboard()
})
