app.post('/login', (req, res) => {
  const { username, password } = req.body;
  const opts = { filter: `(&(objectClass=user)(uid=${username}))`, scope: 'sub' };
  client.search('ou=users,dc=acme,dc=com', opts, (err, result) => {
    result.on('searchEntry', (entry) => bindAs(entry.objectName, password, res));
  });
});
