app.get('/old-dashboard', (req, res) => res.redirect(301, '/dashboard'));
app.get('/docs', (req, res) => res.redirect('https://docs.example.com/'));
