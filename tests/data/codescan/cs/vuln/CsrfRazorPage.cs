[Authorize]
[IgnoreAntiforgeryToken(Order = 1001)]
public class TransferModel : PageModel
{
    private readonly IAccountService _accounts;

    public TransferModel(IAccountService accounts) => _accounts = accounts;

    [BindProperty]
    public TransferInput Input { get; set; } = new();

    public async Task<IActionResult> OnPostAsync()
    {
        await _accounts.TransferAsync(User.GetUserId(), Input.ToAccount, Input.Amount);
        return RedirectToPage("Done");
    }
}
