async function findUser(client, username) {
  const { searchEntries } = await client.search('ou=users,dc=example,dc=org', {
    scope: 'sub',
    filter: `(uid=${username})`,
    attributes: ['dn', 'mail', 'memberOf'],
  });
  return searchEntries[0];
}
