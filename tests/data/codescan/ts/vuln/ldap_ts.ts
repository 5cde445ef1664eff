export async function findByMail(mail: string) {
  return ldapClient.search('dc=corp,dc=io', { filter: `(mail=${mail})`, scope: 'sub' });
}
