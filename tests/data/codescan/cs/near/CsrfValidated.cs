[Authorize]
[AutoValidateAntiforgeryToken]
public class ProfileController : Controller
{
    [HttpPost]
    [ValidateAntiForgeryToken]
    public async Task<IActionResult> Update(ProfileModel model)
    {
        await _profiles.UpdateAsync(User.GetUserId(), model);
        return RedirectToAction(nameof(Index));
    }
}
