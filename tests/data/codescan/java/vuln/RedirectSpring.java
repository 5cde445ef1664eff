    @GetMapping("/sso/return")
    public String ssoReturn(@RequestParam("next") String next) {
        return "redirect:" + next;
    }
