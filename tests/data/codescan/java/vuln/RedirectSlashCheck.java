    @GetMapping("/sso/return")
    public String ssoReturn(@RequestParam("next") String next) {
        return next.startsWith("/") && !next.startsWith("//") ? "redirect:" + next : "redirect:/";
    }
