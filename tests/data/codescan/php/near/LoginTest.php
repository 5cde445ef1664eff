class LoginTest extends TestCase
{
    public function test_wrong_password_is_rejected(): void
    {
        $response = $this->post('/login', ['email' => 'a@example.com', 'password' => 'wrong-password']);
        $response->assertSessionHasErrors('email');
    }
}
