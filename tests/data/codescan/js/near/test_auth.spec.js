describe('POST /login', () => {
  it('rejects a wrong password', async () => {
    const res = await request(app).post('/login').send({ email: 'a@example.com', password: 'not-the-password' });
    expect(res.status).toBe(401);
  });
});
