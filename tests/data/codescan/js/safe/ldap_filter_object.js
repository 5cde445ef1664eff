const { EqualityFilter } = require('ldapts/filters');

async function findUser(client, username) {
  const { searchEntries } = await client.search('ou=users,dc=example,dc=org', {
    scope: 'sub',
    filter: new EqualityFilter({ attribute: 'uid', value: username }),
  });
  return searchEntries[0];
}
