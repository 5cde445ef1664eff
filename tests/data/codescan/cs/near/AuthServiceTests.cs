public class AuthServiceTests
{
    private const string Password = "correct horse battery staple";

    [Fact]
    public async Task Register_Then_Login_Succeeds()
    {
        var svc = TestFactory.AuthService();
        await svc.RegisterAsync("a@example.com", Password);
        Assert.True(await svc.LoginAsync("a@example.com", Password));
        Assert.False(await svc.LoginAsync("a@example.com", "wrong-password"));
    }

    [Fact]
    public void Reset_Tokens_Do_Not_Repeat()
    {
        Assert.NotEqual(AuthService.NewResetToken(), AuthService.NewResetToken());
    }
}
