[IgnoreAntiforgeryToken]
public class AccountController : Controller
{
    [HttpPost]
    public async Task<IActionResult> ChangeEmail(string email)
    {
        var user = await _users.GetUserAsync(User);
        await _users.SetEmailAsync(user, email);
        return RedirectToAction("Index");
    }
}
