[AutoValidateAntiforgeryToken]
public class AccountController : Controller
{
    [HttpPost]
    public IActionResult ChangeEmail(string email) => Ok();
}
