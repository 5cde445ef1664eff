const request = require('supertest');
const app = require('../app');

const PASSWORD = 'correct horse battery staple';

describe('auth API', () => {
  beforeAll(async () => {
    await request(app).post('/register').send({ email: 'a@example.com', password: PASSWORD });
  });

  test('login succeeds with the right password', async () => {
    const res = await request(app).post('/login').send({ email: 'a@example.com', password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.headers['set-cookie'][0]).toMatch(/HttpOnly/);
  });

  test('fetch refuses the metadata address', async () => {
    const res = await request(app).get('/api/fetch').query({ url: 'http://169.254.169.254/latest/' });
    expect(res.status).toBe(400);
  });

  test('download refuses traversal', async () => {
    const res = await request(app).get('/files/..%2f..%2fetc%2fpasswd');
    expect(res.status).toBe(403);
  });
});
