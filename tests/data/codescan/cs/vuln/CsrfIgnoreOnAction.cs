[Authorize]
public class AccountController : Controller
{
    [HttpPost, IgnoreAntiforgeryToken]
    public async Task<IActionResult> ChangeEmail(ChangeEmailModel model)
    {
        var user = await _users.GetUserAsync(User);
        await _users.SetEmailAsync(user, model.NewEmail);
        return RedirectToAction(nameof(Index));
    }
}
