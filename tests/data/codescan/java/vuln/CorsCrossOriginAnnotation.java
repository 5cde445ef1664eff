@RestController
@RequestMapping("/api/account")
@CrossOrigin(originPatterns = "*", allowCredentials = "true")
public class AccountController {

    @GetMapping("/me")
    public AccountDto me(@AuthenticationPrincipal UserDetails user) {
        return accountService.describe(user.getUsername());
    }
}
