describe('login', () => {
  it('fails with a bad password', async () => {
    const res = await request(app).post('/login').send({ username: 'alice', password: 'bad-password' });
    expect(res.status).toBe(401);
  });
  const fakeToken = 'test-token';
});
